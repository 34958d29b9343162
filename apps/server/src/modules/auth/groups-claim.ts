/**
 * Reads a token's groups claim whatever shape the provider sends: a list (Cognito, Keycloak,
 * Entra, the embedded provider), one string, a comma/space separated string or a JSON list.
 */
export function readGroupsClaim(claims: Record<string, unknown>, claimName: string): string[] {
  const raw = claims[claimName];
  if (Array.isArray(raw)) return raw.filter((g): g is string => typeof g === 'string' && g.length > 0);
  if (typeof raw !== 'string') return [];
  const text = raw.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed)
        ? parsed.filter((g): g is string => typeof g === 'string' && g.length > 0)
        : [];
    } catch {
      return [];
    }
  }
  return text.split(/[\s,]+/).filter(Boolean);
}
