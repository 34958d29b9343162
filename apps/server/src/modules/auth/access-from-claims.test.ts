import { describe, expect, it } from 'vitest';
import { accessScopeFromClaims } from './access-from-claims';
import { readGroupsClaim } from './groups-claim';

describe('readGroupsClaim', () => {
  it.each([
    [{ groups: ['admin', 'circor'] }, 'groups', ['admin', 'circor']],
    [{ 'cognito:groups': ['circor'] }, 'cognito:groups', ['circor']],
    [{ groups: 'admin' }, 'groups', ['admin']],
    [{ groups: 'admin, circor' }, 'groups', ['admin', 'circor']],
    [{ groups: '["circor"]' }, 'groups', ['circor']],
    [{ groups: '[not json' }, 'groups', []],
    [{ groups: [1, '', 'admin'] }, 'groups', ['admin']],
    [{ groups: ['admin'] }, 'cognito:groups', []],
    [{}, 'groups', []],
  ])('reads %j under %s as %j', (claims, name, expected) => {
    expect(readGroupsClaim(claims, name)).toEqual(expected);
  });
});

describe('accessScopeFromClaims', () => {
  const base = { sub: 'u1', name: 'Pat Planner', email: 'pat@example.com' };

  it('gives admin every client, writes and admin operations', () => {
    expect(accessScopeFromClaims({ ...base, groups: ['admin'] }, 'groups')).toEqual({
      userId: 'u1',
      userName: 'Pat Planner',
      email: 'pat@example.com',
      groups: ['admin'],
      clientIds: ['internal', 'circor'],
      canWrite: true,
      isAdmin: true,
    });
  });

  it('gives circor only the circor client, with writes but no admin operations', () => {
    const scope = accessScopeFromClaims({ ...base, 'cognito:groups': ['circor'] }, 'cognito:groups');
    expect(scope).toMatchObject({ clientIds: ['circor'], canWrite: true, isAdmin: false });
  });

  it('takes the mail address from email, else from a username that is one', () => {
    expect(
      accessScopeFromClaims({ sub: 'u3', preferred_username: 'x@y.io', groups: ['admin'] }, 'groups').email,
    ).toBe('x@y.io');
    expect(
      accessScopeFromClaims({ sub: 'u4', preferred_username: 'xy', groups: ['admin'] }, 'groups').email,
    ).toBeUndefined();
  });

  it('treats a user in both groups as admin', () => {
    expect(accessScopeFromClaims({ ...base, groups: ['circor', 'admin'] }, 'groups').isAdmin).toBe(true);
  });

  it('names the user by name, else email, else subject', () => {
    expect(accessScopeFromClaims({ sub: 'u2', email: 'e@x.io', groups: ['admin'] }, 'groups').userName).toBe(
      'e@x.io',
    );
    expect(accessScopeFromClaims({ sub: 'u3', groups: ['admin'] }, 'groups').userName).toBe('u3');
  });

  it.each([[[]], [['viewer']], [['Admin']]])(
    'gives groups %j no client, no writes and no admin: their own account only',
    (groups) => {
      const scope = accessScopeFromClaims({ ...base, groups }, 'groups');
      expect(scope).toMatchObject({ clientIds: [], canWrite: false, isAdmin: false });
    },
  );

  it('refuses a token without a subject as unauthenticated', () => {
    expect(() => accessScopeFromClaims({ groups: ['admin'] }, 'groups')).toThrow('Authentication required');
  });
});
