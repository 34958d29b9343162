/**
 * The answers' text format: a small Markdown subset the drawer renders as elements (never as
 * HTML): paragraphs, "- " bullet lists, "1. " numbered lists, "| a | b |" tables (the second line
 * "|---|" separates the header) and **bold** spans inside any of them.
 */
export type InlineSpan = { text: string; bold: boolean };
export type AnswerBlock =
  | { kind: 'paragraph'; spans: InlineSpan[] }
  | { kind: 'list'; ordered: boolean; items: InlineSpan[][] }
  | { kind: 'table'; header: InlineSpan[][]; rows: InlineSpan[][][] };

export function parseInline(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const parts = text.split('**');
  // An unpaired ** is kept as text rather than bolding the rest of the line.
  const balanced = parts.length % 2 === 1;
  parts.forEach((part, index) => {
    const bold = balanced && index % 2 === 1;
    const value = !balanced && index > 0 ? `**${part}` : part;
    if (value) spans.push({ text: value, bold });
  });
  return spans;
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

const isSeparator = (line: string): boolean =>
  /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(line.trim());

export function parseAnswer(text: string): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (!trimmed) {
      index += 1;
      continue;
    }
    if (trimmed.startsWith('|') && isSeparator(lines[index + 1] ?? '')) {
      const header = cellsOf(trimmed).map(parseInline);
      const rows: InlineSpan[][][] = [];
      index += 2;
      while (index < lines.length && lines[index]!.trim().startsWith('|')) {
        rows.push(cellsOf(lines[index]!).map(parseInline));
        index += 1;
      }
      blocks.push({ kind: 'table', header, rows });
      continue;
    }
    const bullet = /^[-*]\s+(.*)$/;
    const numbered = /^\d+[.)]\s+(.*)$/;
    const listPattern = bullet.test(trimmed) ? bullet : numbered.test(trimmed) ? numbered : null;
    if (listPattern) {
      const items: InlineSpan[][] = [];
      while (index < lines.length && listPattern.test(lines[index]!.trim())) {
        items.push(parseInline(listPattern.exec(lines[index]!.trim())![1]!));
        index += 1;
      }
      blocks.push({ kind: 'list', ordered: listPattern === numbered, items });
      continue;
    }
    const paragraph: string[] = [];
    while (
      index < lines.length &&
      lines[index]!.trim() &&
      !bullet.test(lines[index]!.trim()) &&
      !numbered.test(lines[index]!.trim()) &&
      !(lines[index]!.trim().startsWith('|') && isSeparator(lines[index + 1] ?? ''))
    ) {
      paragraph.push(lines[index]!.trim());
      index += 1;
    }
    blocks.push({ kind: 'paragraph', spans: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}
