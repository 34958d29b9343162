import { MAX_LAG, MIN_LAG } from '../control-tower/accuracy';

/**
 * The offline analyst's question grammar (docs/ai-assistant.md). A question is read as
 *
 *   question := intent-phrase [scope] [period] [percent]
 *   intent   := scenario | compare | explain | accuracy | best-practices | overrides | variance
 *             | actuals | totals                      (first rule that matches, in this order)
 *   scope    := product id (PRD-00042) | business unit | product family | region  (names the data holds)
 *   period   := week (2026-11-15 or 20261115) | quarter (Q3, Q3 2026, 2026-Q3) | month (March, Mar 2027)
 *   percent  := a signed number with % ("up 15%", "-10 %", "decrease by 5%")
 *   lag      := "lag 4", "at lag 2", "4 weeks ahead" (1–13, the Forecast Accuracy screen's lags)
 *
 * The parser is pure: the names of business units, families and regions come from the caller.
 */

export const QUESTION_INTENTS = [
  'scenario',
  'compare',
  'explain',
  'accuracy',
  'best-practices',
  'overrides',
  'variance',
  'actuals',
  'totals',
  'unknown',
] as const;
export type QuestionIntent = (typeof QUESTION_INTENTS)[number];

export type QuestionVocabulary = { businessUnits: string[]; families: string[]; regions: string[] };

export type ParsedQuestion = {
  intent: QuestionIntent;
  pid?: string;
  /** yyyy-mm-dd */
  week?: string;
  quarter?: { q: 1 | 2 | 3 | 4; year?: number };
  month?: { m: number; year?: number };
  percent?: number;
  /** Weeks between a forecast snapshot and the week it forecast (accuracy questions). */
  lag?: number;
  bu?: string;
  pf?: string;
  region?: string;
  /** A scenario's name when the question gives one ("scenario Demand Upside (End User)"). */
  scenarioName?: string;
};

/** Intent rules, tried in order; the first whose pattern matches wins. */
const INTENT_RULES: Array<[Exclude<QuestionIntent, 'unknown'>, RegExp]> = [
  [
    'scenario',
    /\b(scenario|what[- ]if|what happens if|simulat\w*)\b|\b(up|down|increase\w*|decrease\w*|rais\w*|lower\w*|cut|grow\w*|drop\w*)\b[^%]{0,20}\d+(\.\d+)?\s*%/,
  ],
  [
    'compare',
    /\b(compare|comparison|versus|vs\.?)\b[^?]*\b(version|versions|cycle|cycles|publish\w*|p1|p2)\b|\b(version|cycle)s?\b[^?]*\b(compare|change[ds]?|differ\w*)\b/,
  ],
  [
    'explain',
    /\b(explain|why|how (is|was|were|are) .{0,40}(calculated|computed|derived|built))\b|\bplan chain\b/,
  ],
  ['accuracy', /\b(accura\w*|mape|bias\w*|back-?test\w*|forecast error|error rate)\b/],
  ['best-practices', /\b(best practice\w*|guideline\w*|how (should|do|to) (i|we)? ?(override|adjust))\b/],
  ['overrides', /\b(override\w*|overridden|adjustment\w*|manual change\w*)\b/],
  [
    'variance',
    /\b(variance\w*|above or below|gap\w*|deviat\w*|differen\w*|delta\w*|against (the )?forecast|vs\.? (the )?forecast)\b/,
  ],
  ['actuals', /\b(actual\w*|bookings?|history|historical)\b/],
  [
    'totals',
    /\b(total\w*|how (much|many)|revenue|units?|cost\w*|margin\w*|plan\w*|sum|sales|volume|demand)\b/,
  ],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_PATTERN =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b(?:\s+(\d{4}))?/;
const NEGATIVE_WORDS =
  /\b(down|decrease\w*|lower\w*|cut|drop\w*|fall\w*|reduc\w*|minus|declin\w*)\b[^%]{0,20}$/;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The longest name of the list that the question holds as whole words (case-insensitive). */
function findName(text: string, names: readonly string[]): string | undefined {
  const sorted = [...names].sort((a, b) => b.length - a.length);
  return sorted.find((name) =>
    new RegExp(`(^|[^\\w])${escapeRegExp(name.toLowerCase())}($|[^\\w])`).test(text),
  );
}

function isoWeek(raw: string): string | undefined {
  const digits = raw.replaceAll('-', '');
  const iso = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

export function parseQuestion(question: string, vocabulary: QuestionVocabulary): ParsedQuestion {
  const text = question.toLowerCase().replace(/\s+/g, ' ').trim();
  const parsed: ParsedQuestion = { intent: 'unknown' };

  const pid = /\b([a-z]{2,5}-\d{3,8})\b/i.exec(question);
  if (pid) parsed.pid = pid[1]!.toUpperCase();

  const week = /\b(\d{4}-\d{2}-\d{2}|\d{8})\b/.exec(text);
  if (week) {
    const iso = isoWeek(week[1]!);
    if (iso) parsed.week = iso;
  }

  const quarter = /\b(\d{4})[- ]?q([1-4])\b/.exec(text) ?? null;
  const quarterFirst = /\bq([1-4])\b(?:\s*(?:of\s+|fy\s*)?(\d{4}))?/.exec(text);
  if (quarter) {
    parsed.quarter = { q: Number(quarter[2]) as 1 | 2 | 3 | 4, year: Number(quarter[1]) };
  } else if (quarterFirst) {
    parsed.quarter = { q: Number(quarterFirst[1]) as 1 | 2 | 3 | 4 };
    if (quarterFirst[2]) parsed.quarter.year = Number(quarterFirst[2]);
  }

  // "may" is also a verb: a bare "may" counts as a month only with a year after it.
  const month = MONTH_PATTERN.exec(text);
  if (month && !parsed.quarter && (month[1] !== 'may' || month[2])) {
    parsed.month = { m: MONTHS.indexOf(month[1]!.slice(0, 3)) + 1 };
    if (month[2]) parsed.month.year = Number(month[2]);
  }

  const percent = /([+-]?\d+(?:\.\d+)?)\s*%/.exec(text);
  if (percent) {
    const value = Number(percent[1]);
    const before = text.slice(0, percent.index);
    parsed.percent = value > 0 && NEGATIVE_WORDS.test(before) ? -value : value;
  }

  const lag = /\blag\s*(\d{1,2})\b|\b(\d{1,2})[- ]weeks?[- ](?:ahead|out|lag)\b/.exec(text);
  const lagWeeks = lag ? Number(lag[1] ?? lag[2]) : 0;
  if (lagWeeks >= MIN_LAG && lagWeeks <= MAX_LAG) parsed.lag = lagWeeks;

  const bu = findName(text, vocabulary.businessUnits);
  if (bu) parsed.bu = bu;
  const pf = findName(text, vocabulary.families);
  if (pf) parsed.pf = pf;
  const region = findName(text, vocabulary.regions);
  if (region) parsed.region = region;

  const name = /scenario\s+['"‘“]?([^:'"’”]+?\(?[^:'"’”]*\)?)['"’”]?\s*:/i.exec(question);
  if (name) parsed.scenarioName = name[1]!.trim();

  parsed.intent = INTENT_RULES.find(([, pattern]) => pattern.test(text))?.[0] ?? 'unknown';
  // A product id alone ("PRD-00042 in 2026-11-15?") asks to explain that record's plan.
  if (parsed.intent === 'unknown' && parsed.pid) parsed.intent = parsed.week ? 'explain' : 'totals';
  if (
    parsed.intent === 'unknown' &&
    (parsed.bu || parsed.pf || parsed.region || parsed.quarter || parsed.month)
  )
    parsed.intent = 'totals';
  if (parsed.intent === 'scenario' && parsed.percent === undefined) parsed.intent = 'unknown';
  return parsed;
}
