import { describe, expect, it } from 'vitest';
import { CONSOLE_ACTIONS, roleMay } from './console-roles';

describe('the console role table', () => {
  it.each([
    ['usage:read', true, true],
    ['usage:export', true, true],
    ['playground:run', true, true],
    ['limits:change', false, true],
    ['prices:change', false, true],
    ['plans:change', false, true],
    ['settings:change', false, true],
  ] as const)('%s: viewer %s, admin %s', (action, viewer, admin) => {
    expect(roleMay('viewer', action)).toBe(viewer);
    expect(roleMay('admin', action)).toBe(admin);
  });

  it('covers every action, and lets a console without sign-in do all of them', () => {
    expect(CONSOLE_ACTIONS).toHaveLength(7);
    expect(CONSOLE_ACTIONS.every((action) => roleMay(null, action))).toBe(true);
  });
});
