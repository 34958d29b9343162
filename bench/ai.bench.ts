import { randomUUID } from 'node:crypto';
import { GREETING_SCENARIO_PROMPT, SUGGESTED_PROMPTS, wrapQuestion } from '@ps/domain';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { ms, percentile, timeRuns, type BenchRow } from './stats';

const RUNS = 20;
/** Budgets: offline answers p95 < 300 ms, help insights p95 < 200 ms. */
const CHAT_BUDGET_MS = 300;
const HELP_BUDGET_MS = 200;

const QUESTIONS = [
  ...SUGGESTED_PROMPTS,
  GREETING_SCENARIO_PROMPT,
  'Total plan revenue for Industrial Valves in Q1',
  'Largest overrides in EMEA',
  'Compare the last two plan versions',
];
const HELP_CONTEXTS = ['planning-workflow', 'performance-metrics', 'forecast-override', 'category-selection'];

async function post(server: BenchServer, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...server.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} failed: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

const ask = (server: BenchServer, question: string) => {
  const context = { page: 'demand-planning', viewLevel: 'category' as const, drillDownType: 'none' as const };
  return post(server, '/api/ai/chat', {
    message: wrapQuestion(question, context),
    sessionId: randomUUID(),
    context,
  });
};

/** Offline analyst answers and help insights over HTTP on the default data set (700 × 52). */
export async function runAiBench(): Promise<BenchRow[]> {
  // Measured requests come faster than any user's, so the per-user limits are lifted for the run.
  process.env.AI_CHAT_REQUESTS_PER_MINUTE = '1000000';
  process.env.AI_HELP_REQUESTS_PER_MINUTE = '1000000';
  const rows: BenchRow[] = [];
  const engines: Array<'pglite' | 'postgres'> = (await isPostgresReachable())
    ? ['pglite', 'postgres']
    : ['pglite'];
  for (const engine of engines) {
    const server = await startBenchServer(engine, { products: 700, weeks: 52 });
    try {
      const chat: number[] = [];
      for (const question of QUESTIONS) {
        await ask(server, question); // warm-up
        const times = await timeRuns(RUNS, () => ask(server, question));
        chat.push(...times);
        rows.push({
          engine,
          request: `chat: ${question.slice(0, 48)}`,
          p50: ms(percentile(times, 50)),
          p95: ms(percentile(times, 95)),
          budget: '',
        });
      }
      rows.push({
        engine,
        request: 'chat: all questions',
        p50: ms(percentile(chat, 50)),
        p95: ms(percentile(chat, 95)),
        budget:
          percentile(chat, 95) < CHAT_BUDGET_MS ? `ok (< ${CHAT_BUDGET_MS} ms)` : `OVER ${CHAT_BUDGET_MS} ms`,
      });
      const help: number[] = [];
      for (const context of HELP_CONTEXTS) {
        const body = {
          context,
          currentData: { pendingChanges: 0 },
          viewLevel: 'category',
          drillDownType: 'none',
        };
        await post(server, '/api/ai-help', body);
        help.push(...(await timeRuns(RUNS, () => post(server, '/api/ai-help', body))));
      }
      rows.push({
        engine,
        request: 'help: all contexts',
        p50: ms(percentile(help, 50)),
        p95: ms(percentile(help, 95)),
        budget:
          percentile(help, 95) < HELP_BUDGET_MS ? `ok (< ${HELP_BUDGET_MS} ms)` : `OVER ${HELP_BUDGET_MS} ms`,
      });
    } finally {
      await server.close();
    }
  }
  return rows;
}
