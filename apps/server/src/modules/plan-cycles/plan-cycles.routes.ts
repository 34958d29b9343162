import { Readable } from 'node:stream';
import {
  CONSENSUS_PLAN_COLUMNS,
  XLSX_MEDIA_TYPE,
  planCycleEndpoints as endpoints,
  toIsoDate,
} from '@ps/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../../lib/clock';
import { endpointInput, endpointRoute, serveEndpoint } from '../../lib/endpoint-route';
import { HEADER_ARGB, TEXT_FORMAT, XlsxStreamWriter, csvCell, csvLine, sendStreamed } from '../exports';
import type { ConsensusPlan, ConsensusPlanRow, ConsensusPlanService } from './consensus-plan.service';
import type { PlanCycleService } from './plan-cycle.service';

/** The file's name: the day it was taken, and what the changes are since. */
function planFileName(plan: ConsensusPlan, now: Date, extension: 'csv' | 'xlsx'): string {
  const since =
    plan.since === null
      ? ''
      : 'version' in plan.since
        ? `-changes-since-v${plan.since.version}`
        : `-changes-since-${plan.since.time.toISOString().slice(0, 19).replace(/:/g, '')}Z`;
  return `consensus-plan${since}-${toIsoDate(now)}.${extension}`;
}

/** Which version the plan is as of: what a consumer asks changes since next time. */
function planHeaders(reply: FastifyReply, plan: ConsensusPlan): void {
  if (plan.latest) {
    reply
      .header('x-plan-version', String(plan.latest.id))
      .header('x-plan-published-at', new Date(plan.latest.published_at).toISOString());
  }
}

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

/**
 * Plan cycles: preview and publish (admins), list the published versions (any signed-in user, own
 * clients), and the plan sent out as CSV or .xlsx (any signed-in user, own clients), streamed.
 */
export function registerPlanCycleRoutes(
  app: FastifyInstance,
  service: PlanCycleService,
  plans: ConsensusPlanService,
  clock: Clock,
): void {
  serveEndpoint(app, endpoints.preview, ({ query }, request) =>
    service.preview(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.publish, ({ body }, request) => service.publish(request.access, body));
  serveEndpoint(app, endpoints.list, ({ query }, request) =>
    service.list(request.access, query.clientContext),
  );

  app.route({
    ...endpointRoute(endpoints.consensusPlanCsv),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.consensusPlanCsv, request);
      const plan = await plans.resolve(request.access, query);
      const rows = plans.rows(plan);
      const body = Readable.from(
        (async function* () {
          yield csvLine(CONSENSUS_PLAN_COLUMNS.map((header) => csvCell(header, 'text')));
          for await (const page of rows) yield page.map(csvOf).join('');
        })(),
      );
      body.on('error', (error) => request.log.error({ err: error }, 'consensus plan CSV failed mid-stream'));
      planHeaders(reply, plan);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${planFileName(plan, clock.now(), 'csv')}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  app.route({
    ...endpointRoute(endpoints.consensusPlanXlsx),
    handler: async (request, reply) => {
      const { query } = endpointInput(endpoints.consensusPlanXlsx, request);
      const plan = await plans.resolve(request.access, query);
      const now = clock.now();
      planHeaders(reply, plan);
      const name = planFileName(plan, now, 'xlsx');
      return sendStreamed(request, reply, { type: XLSX_MEDIA_TYPE, name }, async (out) => {
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
        const pages = (async function* () {
          for await (const page of plans.rows(plan)) {
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
      });
    },
  });
}
