import { SESSION_KEYS } from '@/lib/auth/storage-keys';

/** Screens a circor user may open (spec §6), used to honour a stored post-login target. */
const CUSTOMER_PATHS = [
  '/circor',
  '/control-tower',
  '/demand-planning-review',
  '/inventory-planning',
  '/exchange-rates',
  '/profile',
];

/** A same-origin app path only: never `//host` or `https://…`, which would make the callback an open redirect. */
function isAppPath(target: string | null): target is string {
  return !!target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
}

function isUnder(path: string, prefix: string): boolean {
  const pathname = path.split(/[?#]/)[0] ?? path;
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * Where the callback sends a user (spec §4): circor → /circor, admin → /demand-planning, no valid
 * group → /unauthorized. A post-login target stored before sign-in (a deep link the user opened)
 * wins when the user's group may open it, so a bookmark survives the round trip.
 */
export function postLoginPath(groups: readonly string[], storedTarget: string | null): string {
  const target = isAppPath(storedTarget) && !isUnder(storedTarget, '/auth') ? storedTarget : null;
  if (groups.includes('circor')) {
    return target && CUSTOMER_PATHS.some((prefix) => isUnder(target, prefix)) ? target : '/circor';
  }
  if (groups.includes('admin')) {
    return target && target !== '/' && !isUnder(target, '/circor') && !isUnder(target, '/unauthorized')
      ? target
      : '/demand-planning';
  }
  return '/unauthorized';
}

/** Paths never stored as the post-login target. */
const NOT_A_TARGET = new Set(['/', '/auth/callback']);

/**
 * Keeps the screen a user was on (or opened) as the post-login target when they must sign in:
 * signed out, or their token expired under them. After a sign-out the user chose to leave, so the
 * screen is not brought back next time.
 */
export function rememberPostLoginTarget(pathname: string, search: string): void {
  if (NOT_A_TARGET.has(pathname) || sessionStorage.getItem(SESSION_KEYS.loggedOut) === 'true') return;
  sessionStorage.setItem(SESSION_KEYS.authRedirect, `${pathname}${search}`);
}

/** A signed-in user's home screen: where / and Return to Home take them (spec §4's landing rules). */
export function homePathFor(groups: readonly string[]): string {
  return postLoginPath(groups, null);
}
