/**
 * Spreadsheet formula injection: a cell whose text starts with = + - @ (or a tab or carriage
 * return, which some programs skip before reading a formula) is run as a formula when the file is
 * opened or re-saved. A leading apostrophe makes it text in Excel, LibreOffice and Sheets, in CSV
 * and in .xlsx alike. Numbers are never text, so negative numbers keep their sign.
 */
export function neutraliseText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
