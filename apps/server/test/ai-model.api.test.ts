import { randomUUID } from 'node:crypto';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import type { AccessScope } from '../src/lib/access';
import { AppError } from '../src/lib/errors';
import { demandRecordBatchSave } from '../src/modules/demand-records';
import { AiAssistantService } from '../src/modules/ai-assistant/ai-assistant.service';
import { loadAiConfig } from '../src/modules/ai-assistant/ai-config';
import { seedDemoData } from '../src/seed/seed-demo-data';
import { TEST_ANCHOR } from './support/test-server';

/**
 * The LLM path with the AI SDK's mock language model: the model asks for tools, the tools run over
 * the real database in the caller's scope, their results go back to the model. No network.
 */
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const streamOf = (...chunks: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult => ({
  stream: simulateReadableStream({ chunks }),
});
const toolCall = (toolName: string, input: unknown) =>
  streamOf(
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  );
/** A text answer, in pieces of a few words as a model streams it. */
const text = (value: string) =>
  streamOf(
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...(value.match(/.{1,12}/gs) ?? []).map((delta): LanguageModelV3StreamPart => ({
      type: 'text-delta',
      id: 't',
      delta,
    })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  );

/** The tool results the model was sent back, as parsed JSON. */
function toolResults(call: LanguageModelV3CallOptions): unknown[] {
  return call.prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' && part.output.type === 'json' ? part.output.value : null));
}

const scopeOf = (who: 'admin' | 'circor'): AccessScope =>
  who === 'admin'
    ? {
        userId: 'admin-1',
        userName: 'Admin',
        groups: ['admin'],
        clientIds: ['internal', 'circor'],
        canWrite: true,
        isAdmin: true,
      }
    : {
        userId: 'circor-1',
        userName: 'Circor',
        groups: ['circor'],
        clientIds: ['circor'],
        canWrite: true,
        isAdmin: false,
      };

const silentLog = { warn: () => undefined } as unknown as FastifyBaseLogger;

describe('AI assistant with a model (mock, tool calls)', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = openDatabase({ kind: 'pglite' });
    await migrateToLatest(database.db);
    await seedDemoData(database.db, { products: 20, weeks: 26, anchor: TEST_ANCHOR });
  });
  afterAll(async () => database?.close());

  const serviceWith = async (model: MockLanguageModelV3, env: Record<string, string> = {}) =>
    new AiAssistantService({
      db: database.db,
      config: loadAiConfig({
        AI_PROVIDER: 'openai-compatible',
        AI_MODEL: 'mock',
        AI_BASE_URL: 'http://127.0.0.1:9/v1',
        ...env,
      }),
      model,
      saveBatch: await demandRecordBatchSave(database.db),
      log: silentLog,
      now: () => new Date('2026-11-22T12:00:00Z'),
    });
  const question = (message: string) => ({
    message,
    sessionId: randomUUID(),
    context: { page: 'demand-planning' },
  });

  it('runs the tool the model asks for in the caller scope and answers with the model text', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        toolCall('planTotals', { bu: ['CIRCOR Aerospace', 'Industrial Valves'] }),
        text('**Final plan**: as the tool says.'),
      ],
    });
    const reply = await (await serviceWith(model)).chat(scopeOf('circor'), question('Total plan?'));
    expect(reply).toMatchObject({
      source: 'model',
      response: '**Final plan**: as the tool says.',
      scenario: null,
    });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doStreamCalls[0]!.tools?.map((t) => t.name).sort()).toEqual([
      'compareMeasures',
      'comparePlanVersions',
      'explainChange',
      'explainRecord',
      'forecastAccuracy',
      'largestOverrides',
      'planTotals',
      'reviewQueue',
      'whatIfScenario',
    ]);
    // Only circor records count, although the model asked for an internal business unit too.
    const [result] = toolResults(model.doStreamCalls[1]!) as Array<{
      total: { finalUnits: number; records: number };
    }>;
    const expected = (
      await sql<{ final: number; records: number }>`
        select coalesce(sum(r.final_pln_units), 0)::float8 as final, count(*)::int as records
        from demand_records r join products p on p.pid = r.pid
        where p.client_id = 'circor' and p.bu = 'CIRCOR Aerospace'`.execute(database.db)
    ).rows[0]!;
    expect(result!.total.finalUnits).toBe(expected.final);
    expect(result!.total.records).toBe(expected.records);
    // The page context goes with the question as data.
    expect(JSON.stringify(model.doStreamCalls[0]!.prompt)).toContain(
      'Page context (data): {\\"page\\":\\"demand-planning\\"',
    );
  });

  it('passes a what-if the model computed to the screen, without saving it', async () => {
    const audit = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(database.db)).rows[0]!.n;
    const before = await audit();
    const model = new MockLanguageModelV3({
      doStream: [
        toolCall('whatIfScenario', { name: 'Upside', percent: 15, period: 'Q4' }),
        text('Here is the scenario.'),
      ],
    });
    const reply = await (
      await serviceWith(model)
    ).chat(scopeOf('admin'), question('What if demand is up 15% in Q4?'));
    expect(reply.scenario).toMatchObject({ name: 'Upside', percent: 15, quarter: '2026-Q4' });
    expect(reply.scenario!.after.units).toBeGreaterThan(reply.scenario!.before.units);
    expect(await audit()).toBe(before);
  });

  it('withholds figures of the reply that no tool result holds, before any piece is sent', async () => {
    const units = (
      await sql<{ final: number }>`
        select coalesce(sum(r.final_pln_units), 0)::float8 as final
        from demand_records r join products p on p.pid = r.pid where p.client_id = 'circor'`.execute(
        database.db,
      )
    ).rows[0]!.final;
    const grounded = new Intl.NumberFormat('en-US').format(units);
    const answer = `The final plan holds **${grounded} units**, about 123,456,789 more than last year (+42.5%).`;
    const model = () => new MockLanguageModelV3({ doStream: [toolCall('planTotals', {}), text(answer)] });
    const reply = await (await serviceWith(model())).chat(scopeOf('circor'), question('Total plan?'));
    expect(reply.response).toBe(
      `The final plan holds **${grounded} units**, about [figure withheld] more than last year ([figure withheld]).\n\n` +
        '**Note:** 2 figures were withheld because they do not come from the data I read.',
    );
    // Streamed in pieces of 12 characters, the invented figures never reach the reader.
    const deltas: string[] = [];
    for await (const event of await (
      await serviceWith(model())
    ).chatStream(scopeOf('circor'), question('Total plan?')))
      if (event.type === 'delta') deltas.push(event.text);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe(reply.response);
    for (const delta of deltas) expect(delta).not.toMatch(/123|456|789|42\.5/);
    // In the user's language.
    const spanish = await (
      await serviceWith(model())
    ).chat(scopeOf('circor'), {
      ...question('Total plan?'),
      context: {
        page: 'demand-planning',
        locale: { language: 'spanish', numberFormat: 'us', dateFormat: 'dd/mm/yyyy', currency: 'usd' },
      },
    });
    expect(spanish.response).toContain('[cifra retenida]');
  });

  it('streams the reply in pieces as the model writes it, then says it is done', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        toolCall('comparePlanVersions', {}),
        text('The latest plan version is compared by quarter.'),
      ],
    });
    const events = [];
    for await (const event of await (
      await serviceWith(model)
    ).chatStream(scopeOf('admin'), question('Compare plan versions')))
      events.push(event);
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((e) => e.text).join('')).toBe('The latest plan version is compared by quarter.');
    expect(events.at(-1)).toMatchObject({ type: 'done', source: 'model', scenario: null });
  });

  it('answers 503 without the provider message when the model fails', async () => {
    const model = new MockLanguageModelV3({
      doStream: () =>
        Promise.reject(new Error('401 invalid api key sk-secret-123 at https://internal.example')),
    });
    const failure = await (
      await serviceWith(model)
    )
      .chat(scopeOf('admin'), question('Totals?'))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('UNAVAILABLE');
    expect((failure as AppError).message).not.toMatch(/sk-secret|internal\.example/);
  });

  it('gives up on a model slower than AI_TIMEOUT_MS', async () => {
    const model = new MockLanguageModelV3({
      doStream: ({ abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    const started = Date.now();
    const failure = await (
      await serviceWith(model, { AI_TIMEOUT_MS: '100' })
    )
      .chat(scopeOf('admin'), question('Totals?'))
      .catch((e: unknown) => e);
    expect((failure as AppError).code).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a bad AI configuration naming the variable', () => {
    expect(() => loadAiConfig({ AI_PROVIDER: 'skynet' })).toThrow(/AI_PROVIDER/);
    expect(() => loadAiConfig({ AI_PROVIDER: 'anthropic' })).toThrow(/AI_MODEL/);
    expect(() => loadAiConfig({ AI_PROVIDER: 'openai-compatible', AI_MODEL: 'llama3.1' })).toThrow(
      /AI_BASE_URL/,
    );
    expect(loadAiConfig({}).AI_PROVIDER).toBe('none');
  });
});
