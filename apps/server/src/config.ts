import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Configuration from environment variables, validated once at start. A bad value stops start-up
 * with one line naming the variable (see main.ts), never a stack trace.
 */
const ZBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** `https://host[:port]` and nothing more: no path, no wildcard, never the opaque `null` origin. */
function isExactOrigin(text: string): boolean {
  if (!/^https?:\/\//.test(text)) return false;
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

const ZConfigSchema = z
  .object({
    PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int()
      .min(0)
      .max(65535, { error: 'must be a port number (0-65535)' })
      .default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z
      .string()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), {
        error: 'must start with postgres:// or postgresql://',
      })
      .optional(),
    /** Folder of the embedded PGlite database when DATABASE_URL is not set. */
    PGLITE_DATA_DIR: z.string().min(1).default('./data/pglite'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    /**
     * Longest a PostgreSQL statement may run, and how long an open transaction may sit idle,
     * before the server cancels it: no request holds locks or pool connections for minutes.
     */
    DB_STATEMENT_TIMEOUT_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int()
      .min(100, { error: 'must be at least 100 (milliseconds)' })
      .default(30_000),
    /** Longest a PostgreSQL statement waits for a row lock before it gives up. */
    DB_LOCK_TIMEOUT_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int()
      .min(100, { error: 'must be at least 100 (milliseconds)' })
      .default(10_000),
    /**
     * With PostgreSQL, forecast runs go through a job queue in chunks of this many products, taken
     * by any server process or `npm run worker` (the embedded database runs them in process).
     */
    FORECAST_CHUNK_PRODUCTS: z.coerce
      .number({ error: 'must be a number of products' })
      .int()
      .min(1, { error: 'must be at least 1' })
      .max(10_000, { error: 'must be at most 10000' })
      .default(250),
    /**
     * A chunk fits and writes this many products at a time, fitting the next slice while this
     * one's records are written; a number as large as the chunk turns the overlap off.
     */
    FORECAST_SLICE_PRODUCTS: z.coerce
      .number({ error: 'must be a number of products' })
      .int()
      .min(1, { error: 'must be at least 1' })
      .max(100_000, { error: 'must be at most 100000' })
      .default(250),
    /** A queued chunk still running after this long (its worker died or hangs) is tried again. */
    FORECAST_CHUNK_TIMEOUT_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int()
      .min(2, { error: 'must be at least 2 (seconds)' })
      .max(3600, { error: 'must be at most 3600 (seconds)' })
      .default(600),
    /** The server process takes queued forecast chunks too; false leaves them to `npm run worker`. */
    FORECAST_WORK_IN_SERVER: ZBoolean.default(true),
    /**
     * The server's "today" as yyyy-mm-dd: every screen, import, export and the rolling horizon take
     * the current day and week from it. Unset: real time.
     */
    CLOCK_TODAY: z
      .string()
      .transform((text, context) => {
        const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : null;
        if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
          context.addIssue({ code: 'custom', message: 'must be a date as yyyy-mm-dd, e.g. 2026-11-15' });
          return z.NEVER;
        }
        return day;
      })
      .optional(),
    /**
     * Weeks the plan covers from the current week on; the roll adds the new weeks when the week
     * changes. Never fewer than the 52 weeks the import's and exports' four quarters need.
     */
    PLAN_HORIZON_WEEKS: z.coerce
      .number({ error: 'must be a number of weeks' })
      .int({ error: 'must be a whole number of weeks' })
      .min(52, { error: 'must be at least 52 (the four quarters the import and exports need)' })
      .max(520, { error: 'must be at most 520' })
      .default(78),
    /** This server process rolls the plan horizon at start and when the week changes; false leaves it to the scheduled cycle. */
    HORIZON_ROLL_IN_SERVER: ZBoolean.default(true),
    /** How often a server process checks whether the week changed and the horizon must roll; 0: only at start. */
    HORIZON_CHECK_MS: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be at least 0' })
      .max(86_400_000, { error: 'must be at most 86400000' })
      .default(60_000),
    /** Seed demo data into an empty database at start. */
    SEED_ON_START: ZBoolean.default(true),
    SEED_PRODUCTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100_000).default(700),
    /**
     * Weeks of demand records the seed writes per product, half of them ahead (small test sizes).
     * Unset: 130 weeks with actuals plus the whole PLAN_HORIZON_WEEKS ahead.
     */
    SEED_WEEKS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(520).optional(),
    /** Folder of the built web app; the server serves it with history fallback when present. */
    WEB_DIST_DIR: z.string().default('apps/web/dist'),
    PUBLIC_URL: z.url({ error: 'must be a URL such as http://localhost:3000' }).optional(),
    /**
     * Issuer of an external OpenID Connect provider (Cognito, Keycloak, Entra, Auth0). Unset means
     * the embedded demo provider at PUBLIC_URL/oidc.
     */
    OIDC_ISSUER: z
      .url({
        error: 'must be the issuer URL, e.g. https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Abc',
      })
      .refine((url) => /^https?:\/\//.test(url), { error: 'must be an http(s) URL' })
      .optional(),
    /** The app's public client id at that provider (required with OIDC_ISSUER). */
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    /** Token claim that lists the user's groups: `groups`, or e.g. `cognito:groups`. */
    OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
    /** Extra accepted token audience besides the client id (an API identifier, e.g. Auth0's). */
    OIDC_AUDIENCE: z.string().min(1).optional(),
    /**
     * Where the embedded provider keeps its signing keys, so a restart does not invalidate
     * sessions. Default: beside the embedded database folder.
     */
    OIDC_KEYS_FILE: z.string().min(1).optional(),
    /** Largest spreadsheet a user may import, in bytes (default 50 MB). */
    IMPORT_MAX_BYTES: z.coerce
      .number({ error: 'must be a number of bytes' })
      .int()
      .min(1024, { error: 'must be at least 1024 (bytes)' })
      .default(50 * 1024 * 1024),
    /** Largest file an admin's bulk data load takes, in bytes (default 2 GB); it is streamed to disk. */
    DATA_LOAD_MAX_BYTES: z.coerce
      .number({ error: 'must be a number of bytes' })
      .int()
      .min(1024, { error: 'must be at least 1024 (bytes)' })
      .default(2 * 1024 * 1024 * 1024),
    /** Most data rows an imported file may hold; a longer file is refused before anything is written. */
    IMPORT_MAX_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int()
      .min(1, { error: 'must be at least 1' })
      .default(200_000),
    /**
     * Most rows of an import written and committed together (default 5,000; a slice also ends
     * before its weekly records pass a fixed bound): another user's save waits for one slice of an
     * import at most.
     */
    IMPORT_SLICE_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int()
      .min(1, { error: 'must be at least 1' })
      .default(5_000),
    /**
     * The planning cycle's actuals feed: files dropped in this folder (or pushed through the API)
     * are loaded by the cycle's first step in name order, then moved to its processed/ or failed/
     * subfolder. Unset: the cycle has no feed step to take.
     */
    CYCLE_FEED_DIR: z.string().min(1).optional(),
    /**
     * Browser origins of other sites allowed to call the API (comma-separated, e.g.
     * https://portal.example.com). Empty: same origin only, no CORS headers at all.
     */
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((list) =>
        list
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.string().refine(isExactOrigin, {
            error:
              'must list origins such as https://portal.example.com (scheme, host, port; no path, not null or *)',
          }),
        ),
      ),
    /**
     * Whether the request's scheme and client address are taken from X-Forwarded-Proto and
     * X-Forwarded-For: `true` (any hop, e.g. a proxy on the same host that is the only way in) or
     * the proxies' addresses / CIDRs, comma-separated. Unset or `false`: the connection itself says
     * whether it is https (so HSTS is sent only on a TLS connection) and who the client is.
     */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value, context): boolean | string[] => {
        const text = value.trim();
        if (['', 'true', 'false'].includes(text)) return text === 'true';
        const proxies = text
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
        if (proxies.every((entry) => isIP(entry.split('/')[0] ?? '') !== 0)) return proxies;
        context.addIssue({
          code: 'custom',
          message: 'must be true, false, or proxy addresses / CIDRs such as 10.0.0.1, 10.1.0.0/16',
        });
        return z.NEVER;
      }),
    /**
     * Mail server for notification digests, e.g. smtp://user:pass@mail.example.com:587 (smtps://
     * for TLS on connect). Unset: notifications are in-app only.
     */
    SMTP_URL: z
      .url({ error: 'must be a URL such as smtp://user:pass@mail.example.com:587' })
      .refine((url) => /^smtps?:\/\//.test(url), { error: 'must start with smtp:// or smtps://' })
      .optional(),
    SMTP_FROM: z.email({ error: 'must be an email address' }).default('planning-suite@localhost'),
    /** A user's notifications wait this long and then go out as one digest mail. */
    NOTIFY_DIGEST_MINUTES: z.coerce
      .number({ error: 'must be a number' })
      .min(0, { error: 'must be at least 0' })
      .max(1440, { error: 'must be at most 1440' })
      .default(60),
    /**
     * How often a server process refreshes the sort extremes of products a big write marked stale
     * (migration 0032), so sorted pages after a forecast run or an import are narrow again without
     * waiting for planners to page through them; 0 leaves it to the sorted pages alone.
     */
    SORT_EXTREMES_REFRESH_MS: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be at least 0' })
      .max(3_600_000, { error: 'must be at most 3600000' })
      .default(1000),
  })
  .superRefine((config, context) => {
    if (config.OIDC_ISSUER && !config.OIDC_CLIENT_ID) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_CLIENT_ID'],
        message: 'must be set when OIDC_ISSUER is set',
      });
    }
    if (!config.OIDC_ISSUER && config.OIDC_CLIENT_ID) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'must be set when OIDC_CLIENT_ID is set',
      });
    }
  });

export type AppConfig = z.infer<typeof ZConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const source = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ZConfigSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  return result.data;
}
