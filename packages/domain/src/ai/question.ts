import { MAX_LAG, MIN_LAG } from '../control-tower/accuracy';
import { editDistance, normalise, typoBudget, words } from './fuzzy';
import {
  LEXICON,
  LONGEST_PHRASE,
  MONTH_NAMES,
  YES_NO_STARTERS,
  type Cue,
  type IntentCue,
  type PlanMeasure,
  type Metric,
  type PeriodUnit,
} from './lexicon';

/**
 * The offline analyst's question reader (docs/ai-assistant.md). It reads the whole question:
 * every word is either a name from the catalogue the user may see (business units, families,
 * regions, sites, planners, products, clients; misspellings read within a small edit distance),
 * a word of the lexicon in one of the four languages (lexicon.ts; typos allowed too), a number,
 * a date or a period, or it is reported back as unknown. The intent follows from all of it,
 * not from the first keyword. Pure: the catalogue comes from the caller.
 */
export const QUESTION_INTENTS = [
  'scenario',
  'why',
  'advice',
  'practices',
  'accuracy',
  'versions',
  'compare',
  'overrides',
  'explain',
  'actuals',
  'totals',
  'unknown',
] as const;
export type QuestionIntent = (typeof QUESTION_INTENTS)[number];

export type Catalogue = {
  businessUnits: string[];
  families: string[];
  regions: string[];
  sites: string[];
  planners: string[];
  /** Product ids the user may see. */
  products: string[];
  /** Clients, only when the user sees more than one. */
  clients: string[];
};
export const SCOPE_KINDS = ['client', 'bu', 'pf', 'region', 'site', 'planner'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
const CATALOGUE_KEY: Record<ScopeKind, keyof Catalogue> = {
  client: 'clients',
  bu: 'businessUnits',
  pf: 'families',
  region: 'regions',
  site: 'sites',
  planner: 'planners',
};

export type QuestionScope = Partial<Record<ScopeKind, string[]>> & { pid?: string };

/** A period as asked; the server resolves it into weeks against its clock and the data. */
export type PeriodAsk =
  | { kind: 'week'; week: string }
  | { kind: 'quarter'; q: 1 | 2 | 3 | 4; year?: number }
  | { kind: 'month'; m: number; year?: number }
  | { kind: 'year'; year: number }
  | { kind: 'relative'; unit: PeriodUnit; offset: -1 | 0 | 1 }
  | { kind: 'lastWeeks'; weeks: number }
  | { kind: 'lately' }
  | { kind: 'ytd' };

export type ParsedQuestion = {
  intent: QuestionIntent;
  /** The question waits for yes or no (it starts "Is", "Are", "Did", "Est-ce", "Sind", "¿Es"…). */
  yesNo: boolean;
  /** "above"/"below" in a yes-or-no comparison; over- or under-forecasting in an accuracy one. */
  side?: 'above' | 'below';
  /** Measures in the order named (actual, statistical forecast, prelim, final, P1, P2). */
  measures: PlanMeasure[];
  metric?: Metric;
  /** "in %", "percent": the answer leads with the percentage. */
  percentAsked: boolean;
  /** Against the same period a year earlier. */
  yoy: boolean;
  period?: PeriodAsk;
  /**
   * Every period named, in the order named, when there are two or more ("Q1 vs Q4", "this quarter
   * vs last quarter"): one measure is then compared across them. Empty with one period or none.
   */
  periods: PeriodAsk[];
  scope: QuestionScope;
  /** Names read from a misspelling, shown back so the user can check them. */
  corrected: Array<{ typed: string; read: string }>;
  /** Words that are none of the above: named in the answer. */
  unknown: string[];
  /** Words close to more than one name, or not close enough to be sure. */
  suggestions: Array<{ typed: string; candidates: string[] }>;
  percent?: number;
  lag?: number;
  scenarioName?: string;
  largest: boolean;
  /** A word of comparison ("vs", "off", "gap", "different", "above") was used. */
  comparison: boolean;
};

type Span = { start: number; end: number };

/** The word a quarter leaves in the question's text while the rest is read ("qmark0"). */
const QUARTER_MARK = 'qmark';
/** `soft`: a word that carries nothing ("and", "of"), still free to sit inside a misspelt name. */
type Token = { text: string; used: boolean; soft?: boolean };

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isoWeek(raw: string): string | undefined {
  const digits = raw.replaceAll('-', '');
  const iso = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

type Named = { kind: ScopeKind; name: string; norm: string[] };

function namesOf(catalogue: Catalogue): Named[] {
  return SCOPE_KINDS.flatMap((kind) =>
    catalogue[CATALOGUE_KEY[kind]].map((name) => ({ kind, name, norm: words(normalise(name)) })),
  ).filter((n) => n.norm.length > 0);
}

/** Reads a question against the catalogue the user may see. */
export function parseQuestion(question: string, catalogue: Catalogue): ParsedQuestion {
  const parsed: ParsedQuestion = {
    intent: 'unknown',
    yesNo: false,
    measures: [],
    percentAsked: false,
    yoy: false,
    periods: [],
    scope: {},
    corrected: [],
    unknown: [],
    suggestions: [],
    largest: false,
    comparison: false,
  };
  let text = normalise(question);
  const cut = (match: RegExpExecArray | null): RegExpExecArray | null => {
    if (match) text = `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`;
    return match;
  };

  // A scenario's own name ("scenario Demand Upside (End User): …") is not read as words.
  const named = /scenario\s+['"‘“]?([^:'"’”]+?\(?[^:'"’”]*\)?)['"’”]?\s*:/i.exec(question);
  if (named) {
    parsed.scenarioName = named[1]!.trim();
    cut(new RegExp(escapeRegExp(normalise(named[0]))).exec(text));
  }

  // A product id as typed: "PRD-00042", or with a space or nothing for the hyphen ("PRD 00042",
  // "prd00042") when the letters are a prefix of the user's own product ids.
  const prefixes = [...new Set(catalogue.products.map((p) => p.split('-')[0]!.toLowerCase()))]
    .filter((p) => /^[a-z]{2,5}$/.test(p))
    .map(escapeRegExp);
  const loosePid = prefixes.length ? new RegExp(`\\b(${prefixes.join('|')}) ?(\\d{3,8})\\b`) : null;
  const pidMatch =
    cut(/\b([a-z]{2,5}-\d{1,8})\b/.exec(text)) ??
    (() => {
      const loose = loosePid ? cut(loosePid.exec(text)) : null;
      if (loose) loose[1] = `${loose[1]}-${loose[2]}`;
      return loose;
    })();
  const week = cut(/\b(\d{4}-\d{2}-\d{2}|20\d{6})\b/.exec(text));
  if (week) {
    const iso = isoWeek(week[1]!);
    if (iso) parsed.period = { kind: 'week', week: iso };
  }
  // Every quarter named; each leaves a marker word behind so its place among the periods is known.
  const quarters: PeriodAsk[] = [];
  for (;;) {
    // Q3, or T3 (trimestre) as French and Spanish planners write it.
    const quarter =
      /\b(20\d{2})[- ]?[qt]([1-4])\b/.exec(text) ??
      /\b[qt]([1-4])\b(?:\s*(?:of\s+|fy\s*)?(20\d{2}))?/.exec(text);
    if (!quarter) break;
    const yearFirst = quarter[0].trim().startsWith('2');
    const q = Number(yearFirst ? quarter[2] : quarter[1]) as 1 | 2 | 3 | 4;
    const year = yearFirst ? Number(quarter[1]) : quarter[2] ? Number(quarter[2]) : undefined;
    text = `${text.slice(0, quarter.index)} ${QUARTER_MARK}${quarters.length} ${text.slice(quarter.index + quarter[0].length)}`;
    quarters.push({ kind: 'quarter', q, ...(year ? { year } : {}) });
  }
  // A year written once covers the bare quarters beside it: "Q2 vs Q1 2027" is both of 2027.
  const years = new Set(quarters.flatMap((ask) => (ask.kind === 'quarter' && ask.year ? [ask.year] : [])));
  if (years.size === 1) {
    const [year] = years;
    for (const ask of quarters) if (ask.kind === 'quarter' && !ask.year) ask.year = year;
  }
  if (quarters[0]) parsed.period = quarters[0];
  const percent = cut(/([+-]?\d+(?:[.,]\d+)?)\s*%/.exec(text));
  if (percent) {
    parsed.percent = Number(percent[1]!.replace(',', '.'));
    parsed.percentAsked = true;
  }
  const lag = cut(/\blag\s*(\d{1,2})\b|\b(\d{1,2})[- ]weeks?[- ](?:ahead|out|lag)\b/.exec(text));
  const lagWeeks = lag ? Number(lag[1] ?? lag[2]) : 0;
  if (lagWeeks >= MIN_LAG && lagWeeks <= MAX_LAG) parsed.lag = lagWeeks;
  const lastWeeks = cut(
    /\b(?:last|past|previous|dernieres?|letzten|ultimas?)\s+(\d{1,2})\s+(?:weeks?|wks?|semaines|wochen|semanas)\b/.exec(
      text,
    ),
  );
  if (lastWeeks && Number(lastWeeks[1]) > 0)
    parsed.period = { kind: 'lastWeeks', weeks: Number(lastWeeks[1]) };

  // Hyphenated words the lexicon does not hold are read word by word ("dois-je").
  const tokens: Token[] = words(text)
    .flatMap((w) => (w.includes('-') && !LEXICON.has(w) && !YES_NO_STARTERS.has(w) ? w.split('-') : [w]))
    .filter(Boolean)
    .map((w) => ({ text: w, used: false }));
  const cues: Array<{ at: number; cue: Cue; term: string }> = [];
  const found = (kind: ScopeKind | 'pid', name: string) => {
    if (kind === 'pid') parsed.scope.pid = name;
    else if (!parsed.scope[kind]?.includes(name)) parsed.scope[kind] = [...(parsed.scope[kind] ?? []), name];
  };

  if (pidMatch) readProduct(pidMatch[1]!.toUpperCase(), catalogue.products, parsed, found);

  const names = namesOf(catalogue).sort((a, b) => b.norm.length - a.norm.length);
  const free = (start: number, length: number) =>
    start + length <= tokens.length && tokens.slice(start, start + length).every((t) => !t.used);
  const phrase = (start: number, length: number) =>
    tokens
      .slice(start, start + length)
      .map((t) => t.text)
      .join(' ');
  const use = ({ start, end }: Span) => {
    for (let i = start; i < end; i += 1) tokens[i]!.used = true;
  };

  // 1. Names of the catalogue, exactly (the longest first).
  for (const n of names) {
    for (let i = 0; i + n.norm.length <= tokens.length; i += 1) {
      if (free(i, n.norm.length) && phrase(i, n.norm.length) === n.norm.join(' ')) {
        found(n.kind, n.name);
        use({ start: i, end: i + n.norm.length });
      }
    }
  }
  // 2. Phrases and words of the lexicon, months, years and numbers, exactly.
  for (let length = LONGEST_PHRASE; length >= 1; length -= 1) {
    for (let i = 0; i + length <= tokens.length; i += 1) {
      if (!free(i, length)) continue;
      const term = phrase(i, length);
      const cueList = LEXICON.get(term);
      if (cueList) {
        for (const cue of cueList) cues.push({ at: i, cue, term });
        use({ start: i, end: i + length });
        if (cueList.every((c) => 'stop' in c)) tokens[i]!.soft = length === 1;
      }
    }
  }
  const periodsAt: Array<{ at: number; ask: PeriodAsk }> = [];
  tokens.forEach((token, i) => {
    const mark = token.text.startsWith(QUARTER_MARK)
      ? quarters[Number(token.text.slice(QUARTER_MARK.length))]
      : undefined;
    if (mark) {
      token.used = true;
      periodsAt.push({ at: i, ask: mark });
      return;
    }
    if (token.used) return;
    const month = MONTH_NAMES.get(token.text);
    const next = tokens[i + 1]?.text;
    if (month && (token.text !== 'may' || /^20\d{2}$/.test(next ?? '')) && !(token.text === 'mar' && !next)) {
      token.used = true;
      const year = next && /^20\d{2}$/.test(next) ? Number(next) : undefined;
      if (year) tokens[i + 1]!.used = true;
      const ask: PeriodAsk = { kind: 'month', m: month, ...(year ? { year } : {}) };
      parsed.period ??= ask;
      periodsAt.push({ at: i, ask });
    } else if (/^20\d{2}$/.test(token.text)) {
      token.used = true;
      const ask: PeriodAsk = { kind: 'year', year: Number(token.text) };
      parsed.period ??= ask;
      periodsAt.push({ at: i, ask });
    } else if (/^\d+([.,]\d+)?$/.test(token.text) || YES_NO_STARTERS.has(token.text)) {
      token.used = true;
    }
  });
  // 3. What is left: misspelt names, then misspelt words of the lexicon, else unknown.
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i]!.used) continue;
    const name = fuzzyName(tokens, i, names);
    if (name?.sure) {
      found(name.kind, name.name);
      parsed.corrected.push({ typed: phrase(i, name.length), read: name.name });
      use({ start: i, end: i + name.length });
      continue;
    }
    const word = fuzzyWord(tokens[i]!.text);
    if (word) {
      for (const cue of LEXICON.get(word)!) cues.push({ at: i, cue, term: word });
      parsed.corrected.push({ typed: tokens[i]!.text, read: word });
      tokens[i]!.used = true;
      continue;
    }
    if (name) {
      parsed.suggestions.push({ typed: phrase(i, name.length), candidates: name.candidates });
      use({ start: i, end: i + name.length });
      continue;
    }
    parsed.unknown.push(asTyped(tokens[i]!.text, question));
  }

  // German "Was …" asks what, not whether.
  const germanWhat = ['sollte', 'soll', 'sollten', 'ist', 'sind', 'kann', 'muss', 'wir', 'ich'].includes(
    tokens[1]?.text ?? '',
  );
  readCues(parsed, cues, tokens[0]?.text, germanWhat, periodsAt);
  // A Spanish question opened with "¿" and not with a question word waits for yes or no
  // ("¿El plan final está por encima…?", not "¿Cuánto…?" or "¿Por qué…?").
  if (!parsed.yesNo && /^\s*¿/.test(question) && !SPANISH_QUESTION_WORDS.has(tokens[0]?.text ?? 'que'))
    parsed.yesNo = true;
  // Two or more periods named: one measure is compared across them, the first named first.
  const periods = periodsAt
    .sort((a, b) => a.at - b.at)
    .map((p) => p.ask)
    .filter((ask, i, all) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(ask)) === i);
  if (periods.length >= 2) {
    parsed.periods = periods;
    parsed.period = periods[0];
    if (parsed.intent === 'totals' || parsed.intent === 'actuals') parsed.intent = 'compare';
  }
  return parsed;
}

const SPANISH_QUESTION_WORDS = new Set([
  'que',
  'cual',
  'cuales',
  'cuanto',
  'cuanta',
  'cuantos',
  'cuantas',
  'como',
  'donde',
  'cuando',
  'quien',
  'quienes',
  'porque',
  'por',
]);

/** A word of the normalised question as the user typed it (its case and accents), to quote it back. */
function asTyped(word: string, question: string): string {
  for (const match of question.matchAll(/[\p{L}\p{N}]+(?:[-/.'’][\p{L}\p{N}]+)*/gu))
    if (normalise(match[0]) === word) return match[0];
  return word;
}

function readProduct(
  pid: string,
  products: readonly string[],
  parsed: ParsedQuestion,
  found: (kind: 'pid', name: string) => void,
) {
  if (products.includes(pid)) return found('pid', pid);
  // The same prefix and number with other zero padding ("PRD-42" for PRD-00042).
  const [prefix, digits] = pid.split('-') as [string, string];
  const padded = products.find((p) => {
    const [pp, pd] = p.split('-');
    return pp === prefix && pd !== undefined && Number(pd) === Number(digits);
  });
  if (padded) {
    parsed.corrected.push({ typed: pid, read: padded });
    return found('pid', padded);
  }
  const close = products.filter((p) => editDistance(p, pid, 1) <= 1).slice(0, 3);
  if (close.length) parsed.suggestions.push({ typed: pid, candidates: close });
  else parsed.unknown.push(pid);
}

type FuzzyName = { kind: ScopeKind; name: string; length: number; sure: boolean; candidates: string[] };

/**
 * The catalogue name a misspelt span starting at `i` stands for: sure when one name is within
 * the typo budget and no other as close; a list to choose from when several are, or when a
 * single word is a whole word of several names ("valves").
 */
function fuzzyName(tokens: Token[], i: number, names: readonly Named[]): FuzzyName | null {
  let best: Array<Named & { distance: number }> = [];
  let bestScore = Infinity;
  for (const n of names) {
    const length = n.norm.length;
    if (i + length > tokens.length) continue;
    const span = tokens.slice(i, i + length);
    if (span[0]!.used || span.at(-1)!.used || span.some((t) => t.used && !t.soft)) continue;
    const typed = tokens
      .slice(i, i + length)
      .map((t) => t.text)
      .join(' ');
    const target = n.norm.join(' ');
    const budget = typoBudget(target.length);
    const distance = editDistance(typed, target, budget + 1);
    if (distance > budget + 1) continue;
    const score = distance / Math.max(1, budget);
    if (score < bestScore) {
      best = [{ ...n, distance }];
      bestScore = score;
    } else if (score === bestScore) best.push({ ...n, distance });
  }
  const first = best[0];
  if (first) {
    const budget = typoBudget(first.norm.join(' ').length);
    const unique = new Set(best.map((b) => b.name));
    if (first.distance <= budget && unique.size === 1)
      return { kind: first.kind, name: first.name, length: first.norm.length, sure: true, candidates: [] };
    if (budget > 0)
      return {
        kind: first.kind,
        name: first.name,
        length: first.norm.length,
        sure: false,
        candidates: [...unique].sort((a, b) => a.localeCompare(b)).slice(0, 8),
      };
  }
  // One word that is a whole word of some names ("aftermarket", "valves", "avery").
  const word = tokens[i]!.text;
  // A short word is too often a piece of many names ("dc"); only a planner's own first or last
  // name is read that short ("Sam").
  const short = word.length < 4;
  const near = (w: string) => {
    const budget = short ? 0 : Math.min(1, typoBudget(w.length));
    return w === word || (budget > 0 && editDistance(w, word, budget) <= budget);
  };
  const holders = names.filter(
    (n) => n.norm.length > 1 && (!short || n.kind === 'planner') && n.norm.some(near),
  );
  const unique = [...new Set(holders.map((h) => h.name))].sort((a, b) => a.localeCompare(b));
  if (unique.length === 1)
    return { kind: holders[0]!.kind, name: unique[0]!, length: 1, sure: true, candidates: [] };
  if (unique.length > 1)
    return {
      kind: holders[0]!.kind,
      name: unique[0]!,
      length: 1,
      sure: false,
      candidates: unique.slice(0, 8),
    };
  return null;
}

/**
 * Words a misspelling may be read as: those that carry a meaning. A word that carries none ("every")
 * is not a target, or a name the catalogue lacks ("Avery") would vanish as that word instead of
 * being named as unknown.
 */
const SINGLE_WORDS = [...LEXICON.keys()].filter(
  (k) => !k.includes(' ') && k.length >= 5 && !LEXICON.get(k)!.every((c) => 'stop' in c),
);

/** The lexicon word a misspelt word stands for, when exactly one meaning is within its typo budget. */
function fuzzyWord(word: string): string | undefined {
  if (word.length < 4 || /\d/.test(word)) return undefined;
  let best: string[] = [];
  let bestDistance = Infinity;
  for (const candidate of SINGLE_WORDS) {
    const budget = typoBudget(Math.max(word.length, candidate.length));
    const distance = editDistance(word, candidate, budget);
    if (distance > budget) continue;
    if (distance < bestDistance) {
      best = [candidate];
      bestDistance = distance;
    } else if (distance === bestDistance) best.push(candidate);
  }
  // Two candidates are fine when they mean the same (forecast/forecasts).
  const meanings = new Set(best.map((b) => JSON.stringify(LEXICON.get(b))));
  return best.length > 0 && meanings.size === 1 ? best[0] : undefined;
}

const has = (cues: ReadonlyArray<{ cue: Cue }>, intent: IntentCue) =>
  cues.some(({ cue }) => 'intent' in cue && cue.intent === intent);

/** "plan" right after another measure names that measure's plan ("prelim plan", "published plan"). */
const PLAN_WORDS = new Set(['plan', 'plans']);

function readCues(
  parsed: ParsedQuestion,
  cues: Array<{ at: number; cue: Cue; term: string }>,
  first: string | undefined,
  germanWhat: boolean,
  periodsAt: Array<{ at: number; ask: PeriodAsk }>,
) {
  cues.sort((a, b) => a.at - b.at);
  for (const { at, cue, term } of cues) {
    const afterMeasure = cues.some((c) => c.at === at - 1 && 'measure' in c.cue);
    if ('measure' in cue && PLAN_WORDS.has(term) && afterMeasure) continue;
    if ('measure' in cue && !parsed.measures.includes(cue.measure)) parsed.measures.push(cue.measure);
    if ('metric' in cue) parsed.metric ??= cue.metric;
    if ('side' in cue) parsed.side ??= cue.side;
  }
  if (has(cues, 'percent')) parsed.percentAsked = true;
  if (has(cues, 'largest')) parsed.largest = true;
  parsed.yesNo = first !== undefined && YES_NO_STARTERS.has(first) && !(first === 'was' && germanWhat);
  if (has(cues, 'overForecast')) parsed.side = 'above';
  if (has(cues, 'underForecast')) parsed.side = 'below';

  // Periods: a relative word next to a unit ("next quarter", "semaine dernière"), "lately", "ytd".
  let comparedWithLastYear = false;
  for (const { at, cue } of cues) {
    if ('period' in cue) {
      parsed.period ??= { kind: cue.period };
      periodsAt.push({ at, ask: { kind: cue.period } });
    }
    if ('yoy' in cue) parsed.yoy = true;
    if (!('relative' in cue)) continue;
    const unit = cues.find((c) => 'unit' in c.cue && Math.abs(c.at - at) <= 1);
    if (!unit || !('unit' in unit.cue)) continue;
    const previous = cues.filter((c) => c.at < Math.min(at, unit.at) && !('stop' in c.cue)).at(-1)?.cue;
    const afterComparison = previous !== undefined && 'intent' in previous && previous.intent === 'compare';
    if (cue.relative === -1 && unit.cue.unit === 'year' && afterComparison && parsed.period) {
      comparedWithLastYear = true;
      continue;
    }
    const ask: PeriodAsk = { kind: 'relative', unit: unit.cue.unit, offset: cue.relative };
    periodsAt.push({ at: Math.min(at, unit.at), ask });
    if (!parsed.period || parsed.period.kind === 'year') parsed.period = ask;
  }
  // "this year vs last year": the period is this year, compared with the one before.
  if (comparedWithLastYear) parsed.yoy = true;
  if (parsed.yoy && !parsed.period) parsed.period = { kind: 'relative', unit: 'year', offset: 0 };

  const scenarioCue = has(cues, 'scenario');
  const direction = cues.some(({ cue }) => 'direction' in cue);
  if (parsed.percent !== undefined && (scenarioCue || direction)) {
    const down = cues.some(({ cue }) => 'direction' in cue && cue.direction === 'down');
    if (down && parsed.percent > 0) parsed.percent = -parsed.percent;
    parsed.intent = 'scenario';
    return;
  }
  const compareCue = has(cues, 'compare') || parsed.side !== undefined;
  parsed.comparison = compareCue;
  const scoped = Object.keys(parsed.scope).length > 0 || parsed.period !== undefined;
  parsed.intent = has(cues, 'why')
    ? 'why'
    : has(cues, 'practices')
      ? 'practices'
      : has(cues, 'advice')
        ? 'advice'
        : has(cues, 'accuracy')
          ? 'accuracy'
          : has(cues, 'versions') && parsed.measures.filter((m) => m !== 'p1' && m !== 'p2').length === 0
            ? 'versions'
            : parsed.measures.length >= 2 || parsed.yoy || compareCue
              ? 'compare'
              : has(cues, 'overrides')
                ? 'overrides'
                : has(cues, 'explain') || (parsed.scope.pid && parsed.period?.kind === 'week')
                  ? 'explain'
                  : parsed.measures.length === 1 && parsed.measures[0] === 'actual'
                    ? 'actuals'
                    : parsed.measures.length > 0 || parsed.metric || has(cues, 'totals') || scoped
                      ? 'totals'
                      : 'unknown';
  if (parsed.intent === 'unknown' && scenarioCue) parsed.intent = 'unknown';
}

/**
 * Which of two measures a gap is measured from: actuals against any plan, the final plan against
 * its references, a plan version against an older one, anything against the statistical forecast.
 */
const SUBJECT_ORDER: readonly PlanMeasure[] = ['actual', 'final', 'prelim', 'p1', 'p2', 'stat'];

/**
 * The two measures a comparison sets side by side, the subject first (SUBJECT_ORDER), so a gap
 * always reads the same way whatever order they were named in; with one measure named, it is set
 * against the final plan, and with none the final plan is set against the statistical forecast.
 */
export function comparedMeasures(parsed: Pick<ParsedQuestion, 'measures'>): [PlanMeasure, PlanMeasure] {
  // Three or more named ("stat vs prelim vs final"): the two nearest the subject end of the chain.
  const named = [...parsed.measures]
    .sort((x, y) => SUBJECT_ORDER.indexOf(x) - SUBJECT_ORDER.indexOf(y))
    .slice(0, 2);
  const pair: PlanMeasure[] =
    named.length === 2
      ? named
      : named[0] === undefined || named[0] === 'final'
        ? ['final', 'stat']
        : ['final', named[0]];
  const [a, b] = [...pair].sort((x, y) => SUBJECT_ORDER.indexOf(x) - SUBJECT_ORDER.indexOf(y));
  return [a!, b!];
}
