import { describe, expect, it } from 'vitest';
import { splitWorkspaces } from './resolve-usage-view';

describe('splitWorkspaces', () => {
  it.each([
    // No choice in the URL: every readable workspace, none dropped.
    [null, ['b', 'a'], ['a', 'b'], []],
    // A shared link naming a workspace this key cannot read: it is dropped and reported.
    [['a', 'z'], ['a', 'b'], ['a'], ['z']],
    [['z', 'y'], ['a'], [], ['y', 'z']],
    [['b', 'a', 'b'], ['a', 'b'], ['a', 'b'], []],
    [[], ['a'], [], []],
  ])('requested %j, readable %j', (requested, readable, workspaceIds, dropped) => {
    expect(splitWorkspaces(requested, readable)).toEqual({
      workspaceIds,
      droppedWorkspaceIds: dropped,
    });
  });
});
