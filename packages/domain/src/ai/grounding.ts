/**
 * Which figures of a model's answer no tool result holds. Every figure the assistant states must
 * come from the data it read; the model is told so, and this checks it after the fact.
 *
 * A figure is a number in the text ("$4,366,221", "15.0%", "−206", "4.37M"). It is grounded when a
 * number in the tool results or the question equals it to the precision it is written with
 * (4,366,221 matches 4,366,221.37; 4.37M matches 4,366,221). Dates, quarters, product ids and
 * small counts (below 10, e.g. list numbers and "Q3") are not figures. A figure no tool result
 * holds is withheld: replaced in the text before it reaches the user (withholdUngrounded).
 */
const SCALE: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };
const NOT_FIGURES =
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{8}\b|\b\d{4}-?Q[1-4]\b|\bQ[1-4]\b|\b[A-Z]{2,5}-\d+\b|\b(19|20)\d{2}\b/gi;
const FIGURE = /[-+−]?\$?\d[\d,]*(?:\.\d+)?\s?(?:[kmb](?![a-z]))?%?/gi;

type Figure = { text: string; value: number; tolerance: number; index: number };

function figuresIn(text: string): Figure[] {
  const figures: Figure[] = [];
  // Blanked to the same length, so a figure's index is its place in the original text.
  for (const match of text.replace(NOT_FIGURES, (found) => ' '.repeat(found.length)).matchAll(FIGURE)) {
    const raw = match[0].trim();
    const suffix = /([kmb])%?$/i.exec(raw)?.[1]?.toLowerCase();
    const numeric = raw
      .replace(/[$,%\s]/g, '')
      .replace(/[kmb]$/i, '')
      .replace('−', '-');
    const value = Number(numeric);
    if (!Number.isFinite(value)) continue;
    const decimals = numeric.includes('.') ? numeric.split('.')[1]!.length : 0;
    const scale = suffix ? SCALE[suffix]! : 1;
    if (Math.abs(value * scale) < 10 && !suffix) continue;
    figures.push({
      text: raw,
      value: value * scale,
      tolerance: (0.5 * scale) / 10 ** decimals + 1e-9,
      index: match.index + match[0].indexOf(raw),
    });
  }
  return figures;
}

function numbersIn(value: unknown, into: number[] = []): number[] {
  if (typeof value === 'number' && Number.isFinite(value)) into.push(value);
  else if (typeof value === 'string') for (const f of figuresIn(value)) into.push(f.value);
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) numbersIn(item, into);
  return into;
}

/** The numbers a reply may state: every number in the tool results, the question and the page context. */
export function knownNumbers(toolResults: readonly unknown[], question: string): number[] {
  return numbersIn([...toolResults, question]);
}

const isKnown = (figure: Figure, known: readonly number[]) =>
  known.some((n) => Math.abs(Math.abs(n) - Math.abs(figure.value)) <= figure.tolerance);

/**
 * The text with every figure no known number holds replaced by `mark` (e.g. "[withheld]"), and the
 * figures withheld. Used on each piece of a streamed answer before it is sent, so an invented
 * figure never reaches the user.
 */
export function withholdUngrounded(
  text: string,
  known: readonly number[],
  mark: string,
): { text: string; withheld: string[] } {
  const withheld: string[] = [];
  let out = '';
  let from = 0;
  for (const figure of figuresIn(text)) {
    if (isKnown(figure, known)) continue;
    withheld.push(figure.text);
    out += text.slice(from, figure.index) + mark;
    from = figure.index + figure.text.length;
  }
  return { text: out + text.slice(from), withheld };
}

/**
 * Where a streamed text may be cut so no figure is split: after the last white space that is not
 * followed by a scale letter or a percent sign ("4.37 M", "15 %" stay whole). -1: nowhere yet.
 */
export function safeCut(text: string): number {
  for (let i = text.length - 1; i >= 0; i -= 1) {
    if (!/\s/.test(text[i]!)) continue;
    const next = text[i + 1];
    if (next === undefined || !/[kmb%]/i.test(next)) return i + 1;
  }
  return -1;
}
