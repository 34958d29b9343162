import { createHash, timingSafeEqual } from 'node:crypto';

/** A person who can sign in at the embedded demo provider. */
export type DemoUser = {
  id: string;
  email: string;
  password: string;
  name: string;
  groups: readonly string[];
};

/**
 * The embedded provider's users: one per group of spec §6 plus one in no group. Their passwords
 * are shown on the sign-in page: the embedded provider is for demos and tests, never production.
 */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: 'demo-admin',
    email: 'admin@demo.local',
    password: 'admin-demo',
    name: 'Demo Admin',
    groups: ['admin'],
  },
  {
    id: 'demo-circor',
    email: 'circor@demo.local',
    password: 'circor-demo',
    name: 'Circor Planner',
    groups: ['circor'],
  },
  { id: 'demo-viewer', email: 'viewer@demo.local', password: 'viewer-demo', name: 'Demo Viewer', groups: [] },
];

export function findDemoUser(id: string): DemoUser | undefined {
  return DEMO_USERS.find((user) => user.id === id);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The user whose email and password match, compared in constant time. */
export function checkDemoCredentials(email: string, password: string): DemoUser | undefined {
  const user = DEMO_USERS.find((candidate) => candidate.email === email.trim().toLowerCase());
  const expected = digest(user?.password ?? 'no such user');
  const isMatch = timingSafeEqual(expected, digest(password));
  return user && isMatch ? user : undefined;
}
