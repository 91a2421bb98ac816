import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  parseAsArrayOf,
  parseAsFloat,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
  type QueryStatesUpdate,
} from './url-state';

const parsers = {
  period: parseAsStringLiteral(['7d', '30d'] as const).withDefault('30d'),
  price: parseAsFloat.withDefault(2.5),
  workspaces: parseAsArrayOf(parseAsString),
  q: parseAsString.withDefault(''),
};

describe('the parsers', () => {
  it.each([
    ['a known literal', parsers.period.parse('7d'), '7d'],
    ['an unknown literal', parsers.period.parse('6mo'), null],
    ['a float', parsers.price.parse('4.25'), 4.25],
    ['not a number', parsers.price.parse('abc'), null],
    ['an empty list', parsers.workspaces.parse(''), []],
    ['a list, a comma inside an item kept', parsers.workspaces.parse('a,b%2Cc'), ['a', 'b,c']],
  ])('%s', (_name, parsed, expected) => expect(parsed).toEqual(expected));

  it('writes a list back the way it reads it', () => {
    const items = ['a', 'b,c'];
    expect(parsers.workspaces.parse(parsers.workspaces.serialize(items))).toEqual(items);
  });
});

/** A probe that shows the state and hands out its setter. */
function renderState(url: string, history: 'push' | 'replace') {
  window.history.replaceState(null, '', url);
  let set: (update: QueryStatesUpdate<typeof parsers>) => void = () => undefined;
  function Probe() {
    const [state, setState] = useQueryStates(parsers, { history });
    set = setState;
    return <output>{JSON.stringify(state)}</output>;
  }
  render(<Probe />);
  return {
    shown: () => JSON.parse(screen.getByRole('status').textContent ?? '') as unknown,
    update: (update: QueryStatesUpdate<typeof parsers>) => act(() => set(update)),
    /** The setter without `act`, to call twice in one. */
    set: (update: QueryStatesUpdate<typeof parsers>) => set(update),
  };
}

describe('useQueryStates', () => {
  it('escapes only what would break the query string, and reads it back', () => {
    const { shown, update } = renderState('/tab', 'replace');
    const q = 'a b+c&d#e%f"g\'h`i<j>k\tl,m:n/o@p';
    update({ q });
    expect(window.location.search).toBe('?q=a+b%2Bc%26d%23e%25f%22g%27h%60i%3Cj%3Ek%09l,m:n/o@p');
    expect(shown()).toMatchObject({ q });
  });

  it('reads the URL, with defaults for what is missing or unreadable', () => {
    const { shown } = renderState('/tab?period=6mo&workspaces=a,b&q=acme&other=1', 'push');
    expect(shown()).toEqual({ period: '30d', price: 2.5, workspaces: ['a', 'b'], q: 'acme' });
  });

  it('writes updates readably, leaves defaults and nulls out, and keeps other keys', () => {
    const { shown, update } = renderState('/tab?other=1&q=acme', 'push');
    update({ period: '7d', workspaces: ['a', 'b'], q: 'big & small' });
    expect(window.location.pathname).toBe('/tab');
    expect(window.location.search).toBe('?other=1&q=big+%26+small&period=7d&workspaces=a,b');
    expect(shown()).toEqual({ period: '7d', price: 2.5, workspaces: ['a', 'b'], q: 'big & small' });
    update({ period: '30d', workspaces: null });
    expect(window.location.search).toBe('?other=1&q=big+%26+small');
  });

  it('lands two updates made in one event', () => {
    const { shown, set } = renderState('/tab', 'replace');
    act(() => {
      set({ period: '7d' });
      set({ price: 4 });
    });
    expect(shown()).toMatchObject({ period: '7d', price: 4 });
  });

  it('pushes a history entry per update, or replaces it', async () => {
    const pushed = renderState('/push', 'push');
    const before = window.history.length;
    pushed.update({ period: '7d' });
    expect(window.history.length).toBe(before + 1);
    // The same state again is no new entry.
    pushed.update({ period: '7d' });
    expect(window.history.length).toBe(before + 1);
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(pushed.shown()).toMatchObject({ period: '30d' });
  });

  it('replaces the entry with history: replace', () => {
    const { update } = renderState('/replace', 'replace');
    const before = window.history.length;
    update({ q: 'a' });
    update({ q: 'ab' });
    expect(window.history.length).toBe(before);
    expect(window.location.search).toBe('?q=ab');
  });
});
