/** Claims holding seconds since the epoch (RFC 7519), shown as dates. */
const TIME_CLAIMS = new Set(['exp', 'iat', 'nbf', 'auth_time', 'updated_at']);

/** Claims as name/value text rows, sorted by name; time claims through `formatTime`. */
export function claimRows(
  claims: Record<string, unknown>,
  formatTime: (date: Date) => string,
): Array<{ name: string; value: string }> {
  return Object.keys(claims)
    .sort()
    .map((name) => {
      const value = claims[name];
      if (TIME_CLAIMS.has(name) && typeof value === 'number') {
        return { name, value: formatTime(new Date(value * 1000)) };
      }
      if (typeof value === 'string') return { name, value };
      return { name, value: JSON.stringify(value) ?? String(value) };
    });
}
