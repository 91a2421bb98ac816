import { describe, expect, it } from 'vitest';
import type { MultitaskStrategy } from '@contracts/deployment';
import type { Rejection, RunLookup } from './flow-types';
import { classifyRun2Fate, classifyRunFate, type RunFate, type RunFateKind } from './run-fate';

const found = (status: string): RunLookup => ({ kind: 'found', status });
const missing: RunLookup = { kind: 'http-error', status: 404, message: 'Run not found' };

describe('classifyRunFate', () => {
  it.each<[MultitaskStrategy, Rejection | null, RunLookup, RunFateKind, string]>([
    ['rollback', null, missing, 'deleted', 'deleted — the deployment answers 404'],
    ['interrupt', null, found('interrupted'), 'interrupted', 'interrupted'],
    [
      'reject',
      { status: 409, message: 'thread busy' },
      found('success'),
      'completed',
      'completed — run 2 was refused (409)',
    ],
    ['enqueue', null, found('success'), 'finished-then-run-2', 'finished, then run 2 ran'],
    [
      'rollback',
      null,
      found('success'),
      'finished-before-run-2',
      'finished before the second message arrived — try a shorter delay',
    ],
    ['interrupt', null, found('error'), 'failed', 'ended with status error'],
    ['enqueue', null, found('timeout'), 'failed', 'ended with status timeout'],
    ['rollback', null, found('running'), 'still-running', 'still running'],
    ['rollback', null, found('pending'), 'still-running', 'still running'],
    ['rollback', null, found('exotic'), 'unknown', 'has status exotic'],
    [
      'rollback',
      null,
      { kind: 'http-error', status: 500, message: 'boom' },
      'unknown',
      'could not be looked up (500, boom)',
    ],
  ])('%s, rejection %j, lookup %j -> %s', (strategy, rejection, run1Lookup, kind, words) => {
    expect(classifyRunFate({ strategy, rejection, run1Lookup })).toMatchObject({ kind, words });
  });

  // Success is each strategy doing what it promises; red is kept for what went wrong.
  it.each<[MultitaskStrategy, Rejection | null, RunLookup, RunFate['tone']]>([
    ['rollback', null, missing, 'success'],
    ['interrupt', null, found('interrupted'), 'success'],
    ['reject', { status: 409, message: 'busy' }, found('success'), 'success'],
    ['enqueue', null, found('success'), 'success'],
    ['interrupt', null, missing, 'danger'],
    ['rollback', null, found('interrupted'), 'warning'],
    ['rollback', null, found('success'), 'warning'],
    ['interrupt', null, found('error'), 'danger'],
  ])('%s, rejection %j, lookup %j: tone %s', (strategy, rejection, run1Lookup, tone) => {
    expect(classifyRunFate({ strategy, rejection, run1Lookup }).tone).toBe(tone);
  });
});

describe('classifyRun2Fate', () => {
  it.each<[Rejection | null, string | null, RunFateKind, string, string]>([
    [
      { status: 409, message: 'thread busy' },
      null,
      'refused',
      'Refused (409)',
      'refused (409): thread busy',
    ],
    [null, 'success', 'run-2-finished', 'Finished', 'finished'],
    [null, 'error', 'failed', 'Failed', 'ended with status error'],
    [null, 'interrupted', 'unknown', 'Unknown', 'ended with status interrupted'],
  ])('rejection %j, status %s -> %s', (rejection, status, kind, badge, words) => {
    expect(classifyRun2Fate(rejection, status)).toMatchObject({ kind, badge, words });
  });
});
