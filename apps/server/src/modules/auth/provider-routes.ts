import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/schema';
import { z } from 'zod';
import { checkDemoCredentials } from './demo-users';
import { createLoginThrottle, SIGN_IN_RETRY_AFTER_SECONDS } from './login-throttle';
import { PROVIDER_PAGE_CSP, renderProviderErrorPage, renderSignInPage } from './sign-in-page';
import { SIGN_IN_MESSAGES, signInLanguage } from './sign-in-messages';

export const PROVIDER_PREFIX = '/oidc';

/** The provider's endpoints and pages are how a user signs in: anyone may reach them. */
const PUBLIC = { config: { access: 'public' } } as const;

const ZLoginFormSchema = z.object({
  email: z.string().trim().max(320).default(''),
  password: z.string().max(1000).default(''),
});

/** The sign-in page's language: the app's ui_locales from the authorization request, else the browser's. */
function languageOf(request: FastifyRequest, interaction: { params: Record<string, unknown> }) {
  const uiLocales = interaction.params.ui_locales;
  return signInLanguage(
    typeof uiLocales === 'string' ? uiLocales : undefined,
    request.headers['accept-language'],
  );
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', PROVIDER_PAGE_CSP)
    .send(html);
}

/**
 * Mounts the embedded provider under /oidc. Its own endpoints (discovery, authorize, token,
 * userinfo, jwks, revocation, logout) are handed the raw request; the sign-in interaction is
 * served here.
 */
export async function registerProviderRoutes(
  app: FastifyInstance,
  provider: Provider,
  db: Kysely<Database>,
): Promise<void> {
  const handle = provider.callback();
  const throttle = createLoginThrottle(db);

  await app.register(async (scope) => {
    // The provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      // Mounted like Express would: the provider sees the path below /oidc and the original URL.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(PROVIDER_PREFIX.length) || '/';
      void handle(raw, reply.raw);
    };
    scope.all(PROVIDER_PREFIX, PUBLIC, forward);
    scope.all(`${PROVIDER_PREFIX}/*`, PUBLIC, forward);
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    const details = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        return null;
      }
    };
    const expired = (request: FastifyRequest, reply: FastifyReply) => {
      const language = signInLanguage(undefined, request.headers['accept-language']);
      return sendPage(
        reply,
        400,
        renderProviderErrorPage('session_expired', SIGN_IN_MESSAGES[language].sessionExpired, language),
      );
    };

    scope.get<{ Params: { uid: string } }>(
      `${PROVIDER_PREFIX}/interaction/:uid`,
      PUBLIC,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        return sendPage(
          reply,
          200,
          renderSignInPage({ uid: interaction.uid, language: languageOf(request, interaction) }),
        );
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${PROVIDER_PREFIX}/interaction/:uid/login`,
      PUBLIC,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const form = ZLoginFormSchema.safeParse(request.body ?? {});
        const email = form.success ? form.data.email.toLowerCase() : '';
        const password = form.success ? form.data.password : '';
        const language = languageOf(request, interaction);
        if (await throttle.isBlocked(email)) {
          return sendPage(
            reply.header('retry-after', String(SIGN_IN_RETRY_AFTER_SECONDS)),
            429,
            renderSignInPage({ uid: interaction.uid, language, email, error: 'tooManyAttempts' }),
          );
        }
        const user = checkDemoCredentials(email, password);
        if (!user) {
          await throttle.recordFailure(email);
          request.log.info({ email }, 'demo provider sign-in refused');
          return sendPage(
            reply,
            401,
            renderSignInPage({ uid: interaction.uid, language, email, error: 'invalidCredentials' }),
          );
        }
        await throttle.recordSuccess(email);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: user.id } },
          { mergeWithLastSubmission: false },
        );
      },
    );

    scope.get<{ Params: { uid: string } }>(
      `${PROVIDER_PREFIX}/interaction/:uid/abort`,
      PUBLIC,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { error: 'access_denied', error_description: 'End-User aborted interaction' },
          { mergeWithLastSubmission: false },
        );
      },
    );
  });
}
