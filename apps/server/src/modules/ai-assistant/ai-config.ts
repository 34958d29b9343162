import { z } from 'zod';

/**
 * The assistant's settings from the environment (README, "AI assistant"). Unset AI_PROVIDER means
 * no model: the offline analyst answers. A bad value stops the server with one line naming it.
 */
const ZPositiveInt = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

const ZAiEnvironment = z.object({
  AI_PROVIDER: z.enum(['none', 'openai-compatible', 'anthropic', 'bedrock']).default('none'),
  AI_MODEL: z.string().trim().min(1).optional(),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_TIMEOUT_MS: ZPositiveInt(30_000),
  AI_CHAT_REQUESTS_PER_MINUTE: ZPositiveInt(20),
  AI_HELP_REQUESTS_PER_MINUTE: ZPositiveInt(60),
  /** A fixed "today" for the assistant (yyyy-mm-dd): relative periods count from it (clock.ts). */
});
export type AiConfig = z.infer<typeof ZAiEnvironment>;

export function loadAiConfig(env: NodeJS.ProcessEnv = process.env): AiConfig {
  const result = ZAiEnvironment.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const config = result.data;
  if (config.AI_PROVIDER !== 'none' && !config.AI_MODEL)
    throw new Error(
      `Invalid environment variable AI_MODEL: required when AI_PROVIDER is ${config.AI_PROVIDER}`,
    );
  if (config.AI_PROVIDER === 'openai-compatible' && !config.AI_BASE_URL)
    throw new Error(
      'Invalid environment variable AI_BASE_URL: required when AI_PROVIDER is openai-compatible',
    );
  return config;
}
