/**
 * Group helpers (spec §6): roles are groups in the identity token; a screen opens when at least one
 * of its allowed groups is in the user's list, and no groups means denied.
 */

/** The groups the product knows; any other group in a token grants nothing. */
export const KNOWN_GROUPS = ['admin', 'circor'] as const;
export type KnownGroup = (typeof KNOWN_GROUPS)[number];

type HasGroups = { groups: readonly string[] } | readonly string[] | null | undefined;

function groupsOf(subject: HasGroups): readonly string[] {
  if (!subject) return [];
  return Array.isArray(subject)
    ? (subject as readonly string[])
    : (subject as { groups: readonly string[] }).groups;
}

export function hasGroup(subject: HasGroups, group: string): boolean {
  return groupsOf(subject).includes(group);
}

export function hasAnyGroup(subject: HasGroups, groups: readonly string[]): boolean {
  const own = groupsOf(subject);
  return groups.some((group) => own.includes(group));
}

/** Whether the user is in a group the product knows: only then may they read any client's data. */
export function hasKnownGroup(subject: HasGroups): boolean {
  return hasAnyGroup(subject, KNOWN_GROUPS);
}

/** True only when every listed group is held; an empty requirement is not a grant. */
export function hasAllGroups(subject: HasGroups, groups: readonly string[]): boolean {
  const own = groupsOf(subject);
  return groups.length > 0 && groups.every((group) => own.includes(group));
}

/**
 * Reads the groups claim, whatever shape the provider sends: a list (Cognito, Keycloak, the
 * embedded provider), a single string, a comma/space separated string or a JSON-encoded list.
 */
export function readGroups(claims: Record<string, unknown> | null | undefined, claimName: string): string[] {
  const raw = claims?.[claimName];
  if (Array.isArray(raw)) return raw.filter((g): g is string => typeof g === 'string' && g.length > 0);
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  const text = raw.trim();
  if (text.startsWith('[')) {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error(`The ${claimName} claim is not a list`);
    return parsed.filter((g): g is string => typeof g === 'string' && g.length > 0);
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

/** Spec §4 'Client context': circor when the user is in circor, otherwise admin. */
export type ClientContext = 'admin' | 'circor';

export function clientContextFor(groups: readonly string[]): ClientContext {
  return groups.includes('circor') ? 'circor' : 'admin';
}

/** Elsewhere the context is inferred from the page path (spec §4). */
export function clientContextFromPath(pathname: string): ClientContext {
  return pathname.split('/').includes('circor') ? 'circor' : 'admin';
}
