import type { Writable } from 'node:stream';
import {
  CONSENSUS_PLAN_COLUMNS,
  quarterStartOf,
  toIsoDate,
  weekStartSunday,
  type ClientId,
  type ConsensusPlanQuery,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { Database } from '../../db/schema';
import { HEADER_ARGB, TEXT_FORMAT, XlsxStreamWriter, csvCell, csvLine, type XlsxValue } from '../exports';
import {
  latestVersions,
  publishedPlanPage,
  versionOf,
  type KeptVersion,
  type PublishedPlanRow,
} from './published-plan.repository';

const csvOf = (row: ConsensusPlanRow): string =>
  csvLine([
    csvCell(row[0], 'text'),
    csvCell(row[1], 'text'),
    row[2],
    csvCell(row[3], 'number'),
    csvCell(row[4], 'money'),
    csvCell(row[5], 'money'),
    String(row[6]),
    csvCell(row[7], 'text'),
    row[8].toISOString(),
    row[9],
  ]);

/** What the workbook's second sheet says about the plan it holds. */
function aboutRows(plan: ConsensusPlan, now: Date): string[][] {
  const since =
    plan.since === null
      ? 'Nothing: the whole plan'
      : 'version' in plan.since
        ? `Plan version ${plan.since.version}`
        : plan.since.time.toISOString();
  return [
    ['Exported', now.toISOString()],
    ['Changes since', since],
    ['Weeks from', plan.fromWeek],
    ['Money', 'US dollars'],
    ...plan.parts.map((part) => [
      `Plan of ${part.clientId}`,
      `Version ${part.version.id} "${part.version.label}", published ${new Date(part.version.published_at).toISOString()}`,
    ]),
    ['Change', 'upsert: take these figures; delete: the product-week left the plan'],
  ];
}

/** Product-weeks per read: bounded memory, few round trips. */
export const CONSENSUS_PLAN_PAGE_SIZE = 5000;

/** One client's part of the plan sent out: its plan as of `version`, changes since `since`. */
type ClientPart = { clientId: ClientId; version: KeptVersion; since: number | null };

/**
 * What a request for the plan sent out resolved to, before a byte is written: every refusal
 * (unknown version, a version without kept figures) is a clear 4xx here, never mid-stream.
 */
export type ConsensusPlan = {
  parts: ClientPart[];
  /** The version to ask changes since next time: the latest of the parts (null: nothing published). */
  latest: KeptVersion | null;
  /** The version or time the changes are since; null for the whole plan. */
  since: { version: number } | { time: Date } | null;
  /** The first week sent: the first day of the current quarter. */
  fromWeek: string;
};

/** One row as it is written, in the order of CONSENSUS_PLAN_COLUMNS (@ps/domain). */
export type ConsensusPlanRow = [
  client: string,
  pid: string,
  week: string,
  units: number,
  revenue: number,
  cost: number,
  version: number,
  label: string,
  publishedAt: Date,
  change: 'upsert' | 'delete',
];

const timeOf = (version: KeptVersion): number => new Date(version.published_at).getTime();
const later = (a: KeptVersion, b: KeptVersion): boolean =>
  timeOf(a) !== timeOf(b) ? timeOf(a) > timeOf(b) : a.id > b.id;

const named = (version: KeptVersion): string =>
  `Plan version ${version.id} ("${version.label}", ${version.client_id}, published ${new Date(version.published_at).toISOString()})`;

/**
 * The plan sent out (docs/data-integration.md "The plan, sent out"): each client's latest
 * published version per product and week, whole or as the changes since a version or a time.
 * Read from the kept published figures (migration 0067) as of the versions resolved first, so a
 * publish that commits while a large plan downloads does not change what the download holds.
 */
export class ConsensusPlanService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly pageSize = CONSENSUS_PLAN_PAGE_SIZE,
  ) {}

  async resolve(scope: AccessScope, query: ConsensusPlanQuery): Promise<ConsensusPlan> {
    if (query.sinceVersion !== undefined && query.since !== undefined) {
      throw AppError.validation('give sinceVersion or since, not both', 'since');
    }
    const { clientIds } = narrowToContext(scope, query.clientContext);
    const current = (await latestVersions(this.db, clientIds)).map((version) => {
      if (!version.figures_kept) {
        throw new AppError(
          'CONFLICT',
          `${named(version)} was published before plans were kept per product and week: publish again to send it out.`,
        );
      }
      return version;
    });
    let sinceTime: Date | null = null;
    let since: ConsensusPlan['since'] = null;
    if (query.sinceVersion !== undefined) {
      const version = await versionOf(this.db, query.sinceVersion, clientIds);
      if (!version) {
        throw AppError.notFound(`Plan version ${query.sinceVersion} is not a published version you can see.`);
      }
      if (!version.figures_kept) throw this.notKept(version);
      sinceTime = new Date(version.published_at);
      since = { version: version.id };
    } else if (query.since !== undefined) {
      sinceTime = new Date(query.since);
      since = { time: sinceTime };
    }
    const base = new Map<string, KeptVersion>();
    if (sinceTime) {
      for (const version of await latestVersions(this.db, clientIds, sinceTime)) {
        if (!version.figures_kept) throw this.notKept(version);
        base.set(version.client_id, version);
      }
    }
    const parts = current.map((version): ClientPart => ({
      clientId: version.client_id,
      version,
      since: sinceTime ? (base.get(version.client_id)?.id ?? 0) : null,
    }));
    const latest = current.reduce<KeptVersion | null>(
      (found, version) => (found === null || later(version, found) ? version : found),
      null,
    );
    return {
      parts,
      latest,
      since,
      fromWeek: toIsoDate(quarterStartOf(weekStartSunday(this.now()))),
    };
  }

  private notKept(version: KeptVersion): AppError {
    return new AppError(
      'CONFLICT',
      `${named(version)} was published before plans were kept per product and week, so changes since it cannot be told: take the whole plan (without sinceVersion or since), then ask for changes since the version it names.`,
    );
  }

  /** The plan as CSV text, a page at a time (docs/data-integration.md "The plan, sent out"). */
  async *csv(plan: ConsensusPlan): AsyncGenerator<string> {
    yield csvLine(CONSENSUS_PLAN_COLUMNS.map((header) => csvCell(header, 'text')));
    for await (const page of this.rows(plan)) yield page.map(csvOf).join('');
  }

  /**
   * The plan as a workbook written while it downloads: the rows on "Consensus Plan" (week and
   * publish time as dates, figures as numbers), and what the file holds on "About".
   */
  async writeXlsx(plan: ConsensusPlan, out: Writable, now: Date): Promise<void> {
    const book = new XlsxStreamWriter(out, new Date());
    const headerStyle = book.style({ bold: true, fill: HEADER_ARGB, numFmt: TEXT_FORMAT });
    // Per column: week and publish time as dates, units whole, money with cents, the version a number.
    const styles = [
      0,
      0,
      book.style({ numFmt: 'yyyy-mm-dd' }),
      book.style({ numFmt: '0' }),
      book.style({ numFmt: '0.00' }),
      book.style({ numFmt: '0.00' }),
      book.style({ numFmt: '0' }),
      0,
      book.style({ numFmt: 'yyyy-mm-dd hh:mm:ss' }),
      0,
    ];
    const rows = this.rows(plan);
    const pages = (async function* (): AsyncGenerator<XlsxValue[][]> {
      for await (const page of rows) {
        yield page.map((row) => [
          row[0],
          row[1],
          new Date(`${row[2]}T00:00:00Z`),
          row[3],
          row[4],
          row[5],
          row[6],
          row[7],
          row[8],
          row[9],
        ]);
      }
    })();
    await book.writeTable(
      {
        name: 'Consensus Plan',
        columns: CONSENSUS_PLAN_COLUMNS.map((header) => ({
          header,
          width: header === 'Published At' ? 20 : Math.max(11, header.length + 2),
        })),
        headerStyle,
        styleOf: (column, value) => (typeof value === 'number' ? (styles[column] ?? 0) : 0),
      },
      pages,
    );
    await book.writeTable(
      {
        name: 'About',
        columns: [
          { header: 'What', width: 22 },
          { header: 'Value', width: 80 },
        ],
        headerStyle,
        styleOf: () => 0,
      },
      (async function* () {
        yield aboutRows(plan, now);
      })(),
    );
    await book.finish('Planning Suite');
  }

  /** The plan's rows a page at a time, by client, product and week. */
  async *rows(plan: ConsensusPlan): AsyncGenerator<ConsensusPlanRow[]> {
    for (const part of [...plan.parts].sort((a, b) => a.clientId.localeCompare(b.clientId))) {
      const { version } = part;
      const publishedAt = new Date(version.published_at);
      for (let after: { pid: string; week: string } | null = null; ;) {
        const page: PublishedPlanRow[] = await publishedPlanPage(this.db, {
          clientId: part.clientId,
          asOf: version.id,
          since: part.since,
          fromWeek: plan.fromWeek,
          after,
          limit: this.pageSize,
        });
        if (page.length > 0) {
          yield page.map((row): ConsensusPlanRow => [
            part.clientId,
            row.pid,
            row.week_start,
            row.units,
            row.revenue,
            row.cost,
            version.id,
            version.label,
            publishedAt,
            row.removed ? 'delete' : 'upsert',
          ]);
        }
        if (page.length < this.pageSize) break;
        const last = page.at(-1)!;
        after = { pid: last.pid, week: last.week_start };
      }
    }
  }
}
