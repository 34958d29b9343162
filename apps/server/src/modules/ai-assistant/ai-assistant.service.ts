import {
  scaledUnits,
  toIsoDate,
  toTimeSeriesSk,
  unwrapQuestion,
  weekStartSunday,
  type AnswerLocale,
  type ChatReply,
  type ChatRequest,
  type ChatStreamEvent,
  type HelpRequest,
  type HelpResponse,
  type ScenarioPreview,
  type ScenarioRequest,
} from '@ps/domain';
import type { LanguageModel } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { DemandRecordBatchSave } from '../demand-records';
import { listRates } from '../exchange-rates';
import { countRequest, vocabulary } from './ai-assistant.repository';
import { SCENARIO_MAX_RECORDS, scenarioRecordsToSave, type ToolContext } from './ai-assistant.tools';
import type { AiConfig } from './ai-config';
import { speakerFor, type Speaker } from './answer-locale';
import { helpInsights } from './help-insights';
import { streamWithModel, type ModelAnswer } from './model-chat';
import { OfflineAnalyst } from './offline-analyst';

export type AiAssistantDeps = {
  db: Kysely<Database>;
  config: AiConfig;
  model: LanguageModel | null;
  saveBatch: DemandRecordBatchSave;
  log: FastifyBaseLogger;
  now?: () => Date;
};

const SCENARIO_REASON = 'Strategic Initiative';
const MODEL_FAILED = 'The AI service did not answer. Please try again in a moment.';

/** Chat, help and the confirmed what-if save; every call is scoped and rate limited per user. */
export class AiAssistantService {
  private readonly now: () => Date;

  constructor(private readonly deps: AiAssistantDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private toolContext(scope: AccessScope, clientContext: string | undefined): ToolContext {
    const narrowed = narrowToContext(scope, clientContext);
    return { db: this.deps.db, scope: narrowed, clientIds: narrowed.clientIds, today: toIsoDate(this.now()) };
  }

  /** The user's language and formats; the rate table is read only for money in another currency. */
  private async speaker(locale: AnswerLocale | undefined, today: string): Promise<Speaker> {
    const rates = locale && locale.currency !== 'usd' ? await listRates(this.deps.db) : [];
    return speakerFor(locale, rates, today);
  }

  /** Counts the request; over the limit it is refused with 429 before any work is done. */
  private async limit(scope: AccessScope, endpoint: 'chat' | 'help', perMinute: number): Promise<void> {
    const { requests, secondsLeft } = await countRequest(this.deps.db, scope.userId, endpoint, 60);
    if (requests > perMinute) {
      throw AppError.rateLimited(
        `Too many AI ${endpoint === 'chat' ? 'questions' : 'help requests'}: at most ${perMinute} a minute per user. Wait a minute and try again.`,
        secondsLeft,
      );
    }
  }

  /** The whole answer at once (POST /api/ai/chat). */
  async chat(scope: AccessScope, request: ChatRequest): Promise<ChatReply> {
    const events = await this.chatStream(scope, request);
    let response = '';
    for await (const event of events) {
      switch (event.type) {
        case 'delta':
          response += event.text;
          break;
        case 'error':
          throw new AppError('UNAVAILABLE', event.message);
        case 'done':
          return { response, sessionId: event.sessionId, source: event.source, scenario: event.scenario };
      }
    }
    throw new AppError('UNAVAILABLE', MODEL_FAILED);
  }

  /**
   * The answer as events (POST /api/ai/chat/stream). The limit and the input are checked before the
   * first event, so a refusal is still an ordinary error answer; a model failing later ends the
   * stream with an error event whose message never holds the provider's.
   */
  async chatStream(
    scope: AccessScope,
    request: ChatRequest,
    signal?: AbortSignal,
  ): Promise<AsyncGenerator<ChatStreamEvent, void>> {
    await this.limit(scope, 'chat', this.deps.config.AI_CHAT_REQUESTS_PER_MINUTE);
    const ctx = this.toolContext(scope, request.context.clientContext);
    const question = unwrapQuestion(request.message);
    if (!question) throw AppError.validation('message must hold a question', 'message');
    const { sessionId } = request;
    const model = this.deps.model;
    if (!model) {
      const analyst = new OfflineAnalyst(ctx, await this.speaker(request.context.locale, ctx.today));
      const answer = await analyst.answer(question, request.context, await vocabulary(ctx.db, ctx.clientIds));
      return (async function* () {
        yield { type: 'delta', text: answer.text };
        yield { type: 'done', sessionId, source: 'offline', scenario: answer.scenario };
      })();
    }
    const { log, config } = this.deps;
    const speaker = await this.speaker(request.context.locale, ctx.today);
    return (async function* () {
      const timeout = AbortSignal.timeout(config.AI_TIMEOUT_MS);
      const stream = streamWithModel(
        model,
        ctx,
        question,
        request.context,
        signal ? AbortSignal.any([timeout, signal]) : timeout,
        speaker,
      );
      let answer: ModelAnswer;
      try {
        let next = await stream.next();
        while (!next.done) {
          yield { type: 'delta', text: next.value };
          next = await stream.next();
        }
        answer = next.value;
      } catch (error) {
        // The provider's message may hold its URL, account or key: it goes to the log only.
        log.warn({ err: error }, 'AI model call failed');
        yield { type: 'error', message: MODEL_FAILED };
        return;
      }
      yield { type: 'done', sessionId, source: 'model', scenario: answer.scenario };
    })();
  }

  async help(scope: AccessScope, request: HelpRequest): Promise<HelpResponse> {
    await this.limit(scope, 'help', this.deps.config.AI_HELP_REQUESTS_PER_MINUTE);
    const ctx = this.toolContext(scope, request.currentData?.clientContext);
    return helpInsights(ctx, await this.speaker(request.locale, ctx.today), request);
  }

  /**
   * Saves a what-if the user confirmed: each record of the scope and quarter gets SOP_Pln_Ovrd_Units
   * = its current final plan scaled, through the demand records' audited batch save, with the
   * versions just read so an edit made meanwhile fails the save instead of being overwritten.
   */
  async saveScenario(
    scope: AccessScope,
    request: ScenarioRequest,
  ): Promise<{ scenario: ScenarioPreview; updatedRecords: number; changedFields: number }> {
    const ctx = this.toolContext(scope, request.clientContext);
    const { preview, rows } = await scenarioRecordsToSave(ctx, {
      name: request.name,
      percent: request.percent,
      period: request.quarter,
      ...(request.bu ? { bu: request.bu } : {}),
      ...(request.pf ? { pf: request.pf } : {}),
    });
    if (rows.length === 0)
      throw AppError.validation('The scenario holds no record with a final plan', 'quarter');
    if (rows.length > SCENARIO_MAX_RECORDS)
      throw AppError.validation(
        `The scenario changes ${rows.length} records, more than ${SCENARIO_MAX_RECORDS} at once: narrow it to a business unit or family`,
        'bu',
      );
    const comment =
      `What-if scenario "${request.name}": ${request.percent > 0 ? '+' : ''}${request.percent}% in ${preview.quarter}`.slice(
        0,
        500,
      );
    const result = await this.deps.saveBatch(scope, {
      updates: rows.map((row) => ({
        PID: row.pid,
        Time_Series_sk: toTimeSeriesSk(weekStartSunday(new Date(`${row.weekStart}T00:00:00Z`))),
        version: row.version,
        SOP_Pln_Ovrd_Units: scaledUnits(row.finalUnits, request.percent),
        Reason_Code: SCENARIO_REASON,
        Comments: comment,
      })),
    });
    return { scenario: preview, ...result };
  }
}
