import { createHash } from 'node:crypto';
import { escapeHtml } from '../../lib/escape-html';
import { DEMO_USERS } from './demo-users';
import { SIGN_IN_MESSAGES, type SignInError, type SignInLanguage } from './sign-in-messages';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;
font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{width:100%;max-width:440px;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:32px;
box-shadow:0 10px 30px rgba(15,23,42,.08)}
.brand{display:flex;align-items:center;gap:10px;font-weight:600;color:#1d4ed8;margin-bottom:20px}
.logo{width:32px;height:32px;border-radius:8px;background:#1d4ed8;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700}
h1{font-size:22px;margin:0 0 4px}
p.sub{margin:0 0 20px;color:#475569;font-size:14px}
label{display:block;font-size:14px;font-weight:500;margin:14px 0 6px}
input[type=email],input[type=password]{width:100%;height:40px;padding:0 12px;border:1px solid #cbd5e1;border-radius:8px;font-size:14px}
input:focus{outline:2px solid #2563eb;outline-offset:1px}
button{cursor:pointer;font:inherit}
.primary{width:100%;height:40px;margin-top:20px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font-weight:600}
.primary:hover{background:#1e40af}
.error{margin:0 0 12px;padding:10px 12px;border-radius:8px;background:#fef2f2;color:#b91c1c;border:1px solid #fecaca;font-size:14px}
.demo{margin-top:28px;border-top:1px solid #e2e8f0;padding-top:18px}
.demo h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#475569;margin:0 0 4px}
.demo p{font-size:13px;color:#475569;margin:0 0 10px}
.user{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:10px 0;border-top:1px solid #f1f5f9}
.user:first-of-type{border-top:0}
.user div{font-size:13px;line-height:1.4}
.user strong{font-size:14px}
.user code{font-size:12px;background:#f1f5f9;padding:1px 5px;border-radius:4px}
.user button{height:32px;padding:0 12px;border:1px solid #cbd5e1;background:#fff;border-radius:8px;font-size:13px;white-space:nowrap}
.user button:hover{background:#eff6ff}
.cancel{display:block;text-align:center;margin-top:14px;font-size:14px;color:#475569}
`;

/**
 * The provider pages run no script, post forms only to the provider itself and may not be framed;
 * their one inline stylesheet is allowed by its hash, nothing else inline.
 */
export const PROVIDER_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function layout(title: string, body: string, language: SignInLanguage = 'en'): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>
<div class="brand"><span class="logo">PS</span><span>Planning Suite</span></div>${body}</main></body></html>`;
}

/**
 * The embedded provider's sign-in page in the user's language: an email/password form and the demo
 * users with their passwords.
 */
export function renderSignInPage({
  uid,
  language,
  email = '',
  error,
}: {
  uid: string;
  language: SignInLanguage;
  email?: string | undefined;
  error?: SignInError | undefined;
}): string {
  const text = SIGN_IN_MESSAGES[language];
  const action = `/oidc/interaction/${encodeURIComponent(uid)}/login`;
  const users = DEMO_USERS.map(
    (user) => `<form class="user" method="post" action="${action}">
<div><strong>${escapeHtml(user.name)}</strong><br><code>${escapeHtml(user.email)}</code> / <code>${escapeHtml(user.password)}</code><br>
${escapeHtml(text.groups)} ${escapeHtml(user.groups.length > 0 ? user.groups.join(', ') : text.noGroups)}</div>
<input type="hidden" name="email" value="${escapeHtml(user.email)}"><input type="hidden" name="password" value="${escapeHtml(user.password)}">
<button type="submit" aria-label="${escapeHtml(text.signInAs.replace('{name}', user.name))}">${escapeHtml(text.useAccount)}</button></form>`,
  ).join('');
  return layout(
    text.pageTitle,
    `<h1>${escapeHtml(text.heading)}</h1><p class="sub">${escapeHtml(text.subtitle)}</p>
${error ? `<p class="error" role="alert">${escapeHtml(text[error])}</p>` : ''}
<form method="post" action="${action}" autocomplete="on">
<label for="email">${escapeHtml(text.email)}</label><input id="email" name="email" type="email" required autofocus value="${escapeHtml(email)}">
<label for="password">${escapeHtml(text.password)}</label><input id="password" name="password" type="password" required>
<button class="primary" type="submit">${escapeHtml(text.signIn)}</button></form>
<a class="cancel" href="/oidc/interaction/${encodeURIComponent(uid)}/abort">${escapeHtml(text.cancel)}</a>
<section class="demo"><h2>${escapeHtml(text.demoUsers)}</h2><p>${escapeHtml(text.demoNote)}</p>${users}</section>`,
    language,
  );
}

/** oidc-provider's sign-out confirmation, around the form it renders (id op.logoutForm). */
export function renderSignOutPage(form: string, language: SignInLanguage): string {
  const text = SIGN_IN_MESSAGES[language];
  return layout(
    text.signOutTitle,
    `<h1>${escapeHtml(text.signOutHeading)}</h1><p class="sub">${escapeHtml(text.signOutQuestion)}</p>${form}
<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(text.signOutYes)}</button>
<button class="primary" type="submit" form="op.logoutForm">${escapeHtml(text.signOutNo)}</button>`,
    language,
  );
}

/** Shown when sign-out ends without a way back to the app. */
export function renderSignedOutPage(language: SignInLanguage): string {
  const text = SIGN_IN_MESSAGES[language];
  return layout(
    text.signedOutTitle,
    `<h1>${escapeHtml(text.signedOutHeading)}</h1><p class="sub">${escapeHtml(text.signedOutText)}</p><a class="cancel" href="/">${escapeHtml(text.returnHome)}</a>`,
    language,
  );
}

/** The provider's error page (bad client, expired interaction, …); the provider's own description stays as it wrote it. */
export function renderProviderErrorPage(
  error: string,
  description: string,
  language: SignInLanguage,
): string {
  const text = SIGN_IN_MESSAGES[language];
  return layout(
    text.errorTitle,
    `<h1>${escapeHtml(text.errorHeading)}</h1><p class="error" role="alert">${escapeHtml(description || error)}</p>
<p class="sub">${escapeHtml(text.errorCode)} ${escapeHtml(error)}</p><a class="cancel" href="/">${escapeHtml(text.returnHome)}</a>`,
    language,
  );
}
