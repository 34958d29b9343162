/**
 * The words the question reader knows, in English, French, German and Spanish, normalised
 * (fuzzy.ts: lower case, no accents). Each maps to cues; a phrase of several words is matched
 * before its words. Words not listed here, not a name from the catalogue and not a number are
 * named back to the user as unknown, so nothing is dropped silently.
 */
export const PLAN_MEASURES = ['actual', 'stat', 'prelim', 'final', 'p1', 'p2'] as const;
export type PlanMeasure = (typeof PLAN_MEASURES)[number];
export type Metric = 'units' | 'revenue' | 'cost' | 'margin';
export type PeriodUnit = 'week' | 'month' | 'quarter' | 'year';

export type Cue =
  | { measure: PlanMeasure }
  | { metric: Metric }
  | { intent: IntentCue }
  | { relative: -1 | 0 | 1 }
  | { unit: PeriodUnit }
  | { period: 'lately' | 'ytd' }
  | { yoy: true }
  | { direction: 'up' | 'down' }
  | { side: 'above' | 'below' }
  | { stop: true };

export type IntentCue =
  | 'why'
  | 'advice'
  | 'accuracy'
  | 'overForecast'
  | 'underForecast'
  | 'overrides'
  | 'practices'
  | 'versions'
  | 'explain'
  | 'scenario'
  | 'compare'
  | 'percent'
  | 'totals'
  | 'largest';

const entries: Array<[string, Cue | Cue[]]> = [];
const add = (cue: Cue | Cue[], ...terms: string[]) => {
  for (const term of terms) entries.push([term, cue]);
};

// Measures (the plan chain and the published versions).
add(
  { measure: 'actual' },
  'actual',
  'actuals',
  'act',
  'acts',
  'actl',
  'booking',
  'bookings',
  'booked',
  'book',
  'sales',
  'sold',
  'shipments',
  'history',
  'historical',
  'reel',
  'reels',
  'realise',
  'ventes',
  'istwerte',
  'ist-werte',
  'istwert',
  'ist-wert',
  'tatsachlich',
  'tatsachliche',
  'tatsachlichen',
  'absatz',
  'real',
  'reales',
  'ventas',
);
add(
  { measure: 'stat' },
  'stat',
  'stats',
  'statistical',
  'statistic',
  'forecast',
  'forecasts',
  'forecasted',
  'fcst',
  'fcsts',
  'fc',
  'ensemble',
  'baseline',
  'statistical forecast',
  'stat forecast',
  'stat fcst',
  'system forecast',
  'prevision',
  'previsions',
  'prevision statistique',
  'statistique',
  'prognose',
  'statistische',
  'statistischen',
  'statistische prognose',
  'pronostico',
  'estadistico',
  'estadistica',
);
add(
  { measure: 'prelim' },
  'prelim',
  'preliminary',
  'prelim plan',
  'preliminary plan',
  'preliminaire',
  'vorlaufig',
  'vorlaufige',
  'vorlaufigen',
  'preliminar',
);
add(
  { measure: 'final' },
  'final',
  'finale',
  'finalen',
  'finaler',
  'plan',
  'plans',
  'planned',
  'planning',
  'final plan',
  'consensus',
  'consensus plan',
  'sop',
  's and op',
  'plan final',
  'endgultig',
  'endgultige',
  'endgultigen',
  'planung',
  'finalem',
  'finalen plan',
);
add(
  { measure: 'p1' },
  'p1',
  'published',
  'published plan',
  'last published',
  'publie',
  'veroffentlicht',
  'veroffentlichte',
  'veroffentlichten',
  'publicado',
);
add({ measure: 'p2' }, 'p2', 'previous published', 'prior published');

// Metrics.
add(
  { metric: 'units' },
  'unit',
  'units',
  'qty',
  'quantity',
  'quantities',
  'volume',
  'volumes',
  'pieces',
  'pcs',
  'unites',
  'quantite',
  'einheiten',
  'menge',
  'stuck',
  'unidades',
  'cantidad',
);
add(
  { metric: 'revenue' },
  'revenue',
  'revenues',
  'rev',
  'dollars',
  'dollar',
  'usd',
  'money',
  'value',
  '$',
  'turnover',
  "chiffre d'affaires",
  'chiffre',
  'ca',
  'umsatz',
  'umsatze',
  'erlos',
  'ingresos',
  'ingreso',
  'facturacion',
);
add({ metric: 'cost' }, 'cost', 'costs', 'cout', 'couts', 'kosten', 'costo', 'costos', 'coste');
add({ metric: 'margin' }, 'margin', 'margins', 'marge', 'marges', 'marge', 'margen');

// Intent cues.
add(
  { intent: 'why' },
  'why',
  'cause',
  'caused',
  'reason',
  'drove',
  'driver',
  'drivers',
  'explain the change',
  'jump',
  'jumped',
  'spike',
  'spiked',
  'dip',
  'dropped',
  'moved',
  'swing',
  'what s behind',
  'whats behind',
  'what is behind',
  'pourquoi',
  'warum',
  'wieso',
  'weshalb',
  'por que',
  'porque',
);
add(
  { intent: 'advice' },
  'should',
  'look at',
  'focus',
  'focus on',
  'priority',
  'priorities',
  'prioritise',
  'prioritize',
  'attention',
  'review',
  'to do',
  'next step',
  'next steps',
  'recommend',
  'recommendation',
  'recommendations',
  'exception',
  'exceptions',
  'alerts',
  'worry',
  'fix',
  'fixes',
  'fixing',
  'action',
  'actions',
  'best action',
  'next best action',
  'tackle',
  'dois',
  'devrais',
  'regarder',
  'sollte',
  'sollten',
  'soll',
  'anschauen',
  'debo',
  'deberia',
  'revisar',
);
add(
  { intent: 'accuracy' },
  'accuracy',
  'accurate',
  'accurately',
  'mape',
  'wape',
  'mase',
  'bias',
  'biased',
  'error',
  'errors',
  'backtest',
  'back-test',
  'fva',
  'add value',
  'adds value',
  'adding value',
  'value add',
  'value added',
  'forecast value add',
  'precision',
  'precis',
  'fiable',
  'genauigkeit',
  'genau',
  'prognosegute',
  'fehler',
  'exactitud',
  'preciso',
  'precisa',
);
add(
  [{ intent: 'overForecast' }, { intent: 'accuracy' }],
  'over-forecasting',
  'over-forecast',
  'overforecasting',
  'overforecast',
  'over forecasting',
  'over forecast',
  'over-forecasted',
  'too high',
  'surestimons',
  'surestime',
  'surestimation',
  'uberschatzen',
  'uberschatzt',
  'sobreestimando',
  'sobreestimamos',
);
add(
  [{ intent: 'underForecast' }, { intent: 'accuracy' }],
  'under-forecasting',
  'under-forecast',
  'underforecasting',
  'underforecast',
  'under forecasting',
  'under forecast',
  'too low',
  'sous-estimons',
  'sous-estime',
  'unterschatzen',
  'unterschatzt',
  'subestimando',
  'subestimamos',
);
add(
  { intent: 'overrides' },
  'override',
  'overrides',
  'overridden',
  'overriding',
  'ovrd',
  'adjustment',
  'adjustments',
  'adjusted',
  'manual change',
  'manual changes',
  'ajustement',
  'ajustements',
  'surcharge',
  'surcharges',
  'anpassung',
  'anpassungen',
  'uberschreibung',
  'uberschreibungen',
  'ajuste',
  'ajustes',
  'which planner',
  'which planners',
  'what planner',
  'who changed',
  'who overrode',
  'changed the most',
  'change anything',
  'changed anything',
  'made changes',
  'made any changes',
);
add(
  { intent: 'practices' },
  'best practice',
  'best practices',
  'guideline',
  'guidelines',
  'how should i override',
  'how to override',
  'how do i override',
  'how should we override',
  'bonnes pratiques',
  'best practices',
  'buenas practicas',
);
add(
  { intent: 'versions' },
  'version',
  'versions',
  'cycle',
  'cycles',
  'plan versions',
  'published plans',
  'zyklus',
  'ciclo',
);
add(
  { intent: 'explain' },
  'explain',
  'calculated',
  'computed',
  'derived',
  'plan chain',
  'breakdown of',
  'expliquer',
  'explique',
  'erklare',
  'erklaren',
  'explica',
  'explicar',
);
add(
  { intent: 'scenario' },
  'scenario',
  'what if',
  'what-if',
  'simulate',
  'simulation',
  'run the scenario',
  'et si',
  'was ware wenn',
  'szenario',
  'escenario',
  'que pasa si',
);
add(
  { intent: 'compare' },
  'vs',
  'v',
  'versus',
  'compare',
  'compared',
  'comparing',
  'comparison',
  'against',
  'off',
  'gap',
  'gaps',
  'difference',
  'differences',
  'diff',
  'delta',
  'variance',
  'variances',
  'deviation',
  'different',
  'differ',
  'differs',
  'than',
  'relative to',
  'ecart',
  'ecarts',
  'par rapport',
  'comparer',
  'contre',
  'abweichung',
  'vergleich',
  'vergleiche',
  'gegenuber',
  'differenz',
  'diferencia',
  'frente',
  'comparar',
  'contra',
  'desviacion',
);
add(
  [{ intent: 'compare' }, { side: 'above' }],
  'above',
  'over',
  'higher',
  'more',
  'exceed',
  'exceeds',
  'beat',
  'beats',
  'ahead',
  'bigger',
  'greater',
  'larger',
  'exceeding',
  'exceeded',
  'surpass',
  'surpasses',
  'depasse',
  'depassent',
  'depasser',
  'superieur',
  'superieure',
  'uberschreitet',
  'uberschreiten',
  'ubertrifft',
  'supera',
  'superan',
  'superior',
  'au-dessus',
  'uber',
  'hoher',
  'encima',
  'mayor',
);
add(
  [{ intent: 'compare' }, { side: 'below' }],
  'below',
  'under',
  'lower',
  'less',
  'fewer',
  'smaller',
  'inferieur',
  'inferieure',
  'unterschreitet',
  'inferior',
  'au-dessous',
  'en dessous',
  'unter',
  'niedriger',
  'debajo',
  'menor',
);
add({ intent: 'compare' }, 'above or below');
add({ side: 'above' }, 'high');
add({ side: 'below' }, 'low');
add({ intent: 'percent' }, '%', 'percent', 'percentage', 'pct', 'pourcentage', 'prozent', 'porcentaje');
add(
  { intent: 'totals' },
  'total',
  'totals',
  'sum',
  'how much',
  'how many',
  'demand',
  'number',
  'figure',
  'figures',
  'numbers',
  'overview',
  'summary',
  'combien',
  'somme',
  'demande',
  'wie viel',
  'wieviel',
  'summe',
  'gesamt',
  'nachfrage',
  'cuanto',
  'cuanta',
  'cuantos',
  'suma',
  'demanda',
);
add(
  { intent: 'largest' },
  'largest',
  'biggest',
  'top',
  'most',
  'main',
  'plus grands',
  'plus gros',
  'grossten',
  'mayores',
);

// Periods.
add(
  { relative: 0 },
  'this',
  'current',
  'ce',
  'cet',
  'cette',
  'en cours',
  'diese',
  'diesen',
  'dieses',
  'diesem',
  'dieser',
  'aktuelle',
  'aktuellen',
  'este',
  'esta',
  'actuel',
  'actuelle',
);
add([{ relative: 0 }, { unit: 'quarter' }], 'trimestre actual');
add([{ relative: 0 }, { unit: 'month' }], 'mes actual');
add([{ relative: 0 }, { unit: 'week' }], 'semana actual');
add([{ relative: 0 }, { unit: 'year' }], 'ano actual');
add(
  { relative: 1 },
  'next',
  'nxt',
  'coming',
  'upcoming',
  'following',
  'prochain',
  'prochaine',
  'nachste',
  'nachsten',
  'nachstes',
  'nachstem',
  'kommendem',
  'kommende',
  'kommenden',
  'proximo',
  'proxima',
  'siguiente',
);
add(
  { relative: -1 },
  'last',
  'previous',
  'prior',
  'past',
  'dernier',
  'derniere',
  'precedent',
  'precedente',
  'letzte',
  'letzten',
  'letztes',
  'letztem',
  'vorigem',
  'vorige',
  'vorigen',
  'vergangene',
  'vergangenen',
  'pasado',
  'pasada',
  'anterior',
  'ultimo',
  'ultima',
);
add({ unit: 'week' }, 'week', 'wk', 'wks', 'semaine', 'woche', 'semana');
add({ unit: 'month' }, 'month', 'mo', 'mth', 'mois', 'monat', 'mes');
add({ unit: 'quarter' }, 'quarter', 'qtr', 'quater', 'trimestre', 'quartal');
add({ unit: 'year' }, 'year', 'yr', 'annee', 'an', 'jahr', 'ano');
add(
  { period: 'lately' },
  'lately',
  'recently',
  'recent weeks',
  'recent',
  'dernierement',
  'recemment',
  'ces derniers temps',
  'zuletzt',
  'in letzter zeit',
  'kurzlich',
  'ultimamente',
  'recientemente',
);
add(
  { period: 'ytd' },
  'ytd',
  'year to date',
  'year-to-date',
  'so far this year',
  'depuis le debut de l annee',
  "depuis le debut de l'annee",
  'seit jahresbeginn',
  'seit jahresanfang',
  'en lo que va del ano',
  'en lo que va de ano',
);
add(
  { yoy: true },
  'yoy',
  'y/y',
  'year over year',
  'year-over-year',
  'same period last year',
  'vs ly',
  'v ly',
  'versus ly',
  'vorjahr',
  'vorjahres',
  'zum vorjahr',
  'interannual',
  'interanual',
);

// Scenario directions.
add(
  { direction: 'up' },
  'up',
  'increase',
  'increases',
  'increased',
  'raise',
  'grow',
  'growth',
  'hausse',
  'augmentation',
  'plus',
  'steigt',
  'steigen',
  'erhohung',
  'sube',
  'aumento',
  'aumenta',
);
add(
  { direction: 'down' },
  'down',
  'decrease',
  'decreases',
  'decreased',
  'cut',
  'drop',
  'reduce',
  'reduction',
  'minus',
  'decline',
  'baisse',
  'moins',
  'sinkt',
  'sinken',
  'senkung',
  'baja',
  'disminucion',
  'disminuye',
);

/** First words of a question that waits for yes or no. */
export const YES_NO_STARTERS: ReadonlySet<string> = new Set(
  `is are was were do does did has have will can am isn't aren't est-ce sommes-nous sommes avons
  est sind ist haben hat liegt liegen wird werden uberschatzen unterschatzen estamos esta estan hay
  tenemos es son`.split(/\s+/),
);

// Words that carry no figure of their own.
add(
  { stop: true },
  ...`a an the of for in on at to by from with and or our my your we i me us you it its it's what which
  who whom how much many show tell give list me please can could would get see find there their them
  be been being am week's today so far any all every each per as into out about across within between
  up now vs. pls thx thanks hi hello hey whole overall us ok okay do does did done let let's versus
  when where that this these those than then if also only just some very s t don isn aren doesn didn
  need needs needed far doing look looks looking one two three four five ten going go like right
  currently still yet why's what's whats there's vs do we how should i how should we interpret
  understand before after publish publishing product products item items sku skus je zwischen
  gross hoch alto run hold holds first change changed changes
  made make makes making anything something record records planner planners
  anyone anybody someone somebody
  le la les l de des du d un une et ou en au aux pour par sur dans notre nos votre vos nous je quel
  quelle quels quelles quoi qui est sont ete a-t-il y il elle ce que qu montre montrez donne donnez
  combien le la entre avec mon ma mes pour
  der die das den dem des ein eine einer einen und oder fur im in am zum zur von mit unser unsere
  unserer ihr wie was welche welcher welches ist sind war wird zeig zeige zeigen gib bitte es wir ich
  mir uns als auf bei zu
  el la los las de del un una y o en para por con nuestro nuestra nuestros nuestras mi mis que cual
  cuales es son fue muestra muestrame dame al lo se nos me hay como`
    .split(/\s+/)
    .filter(Boolean),
);

add({ stop: true }, 'how should i', 'how should we', 'how do i');

/** Phrases and words to their cues; the longest phrase first. */
export const LEXICON: ReadonlyMap<string, Cue[]> = (() => {
  const map = new Map<string, Cue[]>();
  for (const [term, cue] of entries) {
    const list = map.get(term) ?? [];
    list.push(...(Array.isArray(cue) ? cue : [cue]));
    map.set(term, list);
  }
  return map;
})();

/** Words of at least this many letters are compared with the lexicon allowing typos. */
export const LONGEST_PHRASE = Math.max(...[...LEXICON.keys()].map((k) => k.split(' ').length));

/** Month names, each language, normalised: the month's number. */
export const MONTH_NAMES: ReadonlyMap<string, number> = new Map(
  (
    [
      ['jan january janvier januar enero', 1],
      ['feb february fevrier februar febrero', 2],
      ['mar march mars marz marzo', 3],
      ['apr april avril abril', 4],
      ['may mai mayo', 5],
      ['jun june juin juni junio', 6],
      ['jul july juillet juli julio', 7],
      ['aug august aout agosto', 8],
      ['sep sept september septembre septiembre', 9],
      ['oct october octobre oktober octubre', 10],
      ['nov november novembre noviembre', 11],
      ['dec december decembre dezember diciembre', 12],
    ] as const
  ).flatMap(([names, m]) => names.split(' ').map((name) => [name, m] as [string, number])),
);
