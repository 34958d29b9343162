let early: Promise<Response> | null = null;

function fetchAuthConfig(): Promise<Response> {
  return fetch('/api/auth/config', { headers: { Accept: 'application/json' } });
}

/**
 * Asks for the provider settings from the entry, before the app's code has loaded: every page
 * needs them before it can tell whether the user is signed in.
 */
export function requestAuthConfig(): void {
  early ??= fetchAuthConfig();
  // A failure is seen, and the request made again, by whoever takes the answer.
  early.catch(() => undefined);
}

/** The answer of the entry's request once, afterwards a new request (a retry after a failure). */
export function takeAuthConfigResponse(): Promise<Response> {
  const response = early ?? fetchAuthConfig();
  early = null;
  return response;
}
