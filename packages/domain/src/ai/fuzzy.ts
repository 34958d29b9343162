/**
 * Text matching of the question reader: one normal form for the question and the catalogue (lower
 * case, accents off, "&" as "and"), and the edit distance that lets a misspelt word still match.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/&/g, ' and ')
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a normalised text: letters, digits, and a product id's or date's inner hyphens. */
export function words(text: string): string[] {
  return text.match(/[a-z0-9]+(?:[-/.][a-z0-9]+)*%?|%/g) ?? [];
}

/** Optimal string alignment distance (Levenshtein plus one swap of neighbours), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    let best = Infinity;
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
  }
  return d[a.length]![b.length]!;
}

/**
 * Edits a word of this length may carry and still be read as the word meant: none up to 4
 * letters (too many short words are one letter apart), one up to 8, two beyond.
 */
export function typoBudget(length: number): number {
  return length <= 4 ? 0 : length <= 8 ? 1 : 2;
}
