import { describe, expect, it } from 'vitest';
import {
  clientContextFor,
  clientContextFromPath,
  hasAllGroups,
  hasAnyGroup,
  hasGroup,
  readGroups,
} from '@/lib/auth/groups';
import { postLoginPath } from '@/lib/auth/post-login-path';

describe('group helpers', () => {
  const user = { groups: ['circor'] };

  it('tests for one group, any group and all groups', () => {
    expect(hasGroup(user, 'circor')).toBe(true);
    expect(hasGroup(user, 'admin')).toBe(false);
    expect(hasAnyGroup(user, ['admin', 'circor'])).toBe(true);
    expect(hasAnyGroup(user, ['admin'])).toBe(false);
    expect(hasAllGroups({ groups: ['admin', 'circor'] }, ['admin', 'circor'])).toBe(true);
    expect(hasAllGroups(user, ['admin', 'circor'])).toBe(false);
  });

  it('denies when the user has no groups or there is no user', () => {
    expect(hasAnyGroup({ groups: [] }, ['admin'])).toBe(false);
    expect(hasAnyGroup(null, ['admin'])).toBe(false);
    expect(hasAllGroups(user, [])).toBe(false);
  });

  it('reads the groups claim under any name and in any common shape', () => {
    expect(readGroups({ groups: ['admin'] }, 'groups')).toEqual(['admin']);
    expect(readGroups({ 'cognito:groups': ['circor'] }, 'cognito:groups')).toEqual(['circor']);
    expect(readGroups({ groups: 'admin circor' }, 'groups')).toEqual(['admin', 'circor']);
    expect(readGroups({ groups: '["circor"]' }, 'groups')).toEqual(['circor']);
    expect(readGroups({}, 'groups')).toEqual([]);
    expect(() => readGroups({ groups: '[broken' }, 'groups')).toThrow();
  });

  it('sets the client context from groups, or from the path', () => {
    expect(clientContextFor(['circor'])).toBe('circor');
    expect(clientContextFor(['admin', 'circor'])).toBe('circor');
    expect(clientContextFor(['admin'])).toBe('admin');
    expect(clientContextFor([])).toBe('admin');
    expect(clientContextFromPath('/circor')).toBe('circor');
    expect(clientContextFromPath('/circor/reports')).toBe('circor');
    expect(clientContextFromPath('/demand-planning')).toBe('admin');
    expect(clientContextFromPath('/circorx')).toBe('admin');
  });
});

describe('postLoginPath', () => {
  it('routes by group as spec §4 says', () => {
    expect(postLoginPath(['circor'], null)).toBe('/circor');
    expect(postLoginPath(['admin'], null)).toBe('/demand-planning');
    expect(postLoginPath([], null)).toBe('/unauthorized');
    expect(postLoginPath(['viewer'], '/demand-planning')).toBe('/unauthorized');
  });

  it('honours a stored target the group may open', () => {
    expect(postLoginPath(['admin'], '/control-tower/sd-match-trend')).toBe('/control-tower/sd-match-trend');
    expect(postLoginPath(['circor'], '/control-tower/inventory-metrics')).toBe(
      '/control-tower/inventory-metrics',
    );
    expect(postLoginPath(['circor'], '/demand-planning')).toBe('/circor');
    expect(postLoginPath(['admin'], '/circor')).toBe('/demand-planning');
  });

  it('never follows a stored target off the site or back into sign-in', () => {
    expect(postLoginPath(['admin'], '//evil.example/x')).toBe('/demand-planning');
    expect(postLoginPath(['admin'], 'https://evil.example')).toBe('/demand-planning');
    expect(postLoginPath(['admin'], '/\\evil.example')).toBe('/demand-planning');
    expect(postLoginPath(['admin'], '/auth/callback')).toBe('/demand-planning');
  });
});
