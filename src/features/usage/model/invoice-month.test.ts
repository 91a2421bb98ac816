import { describe, expect, it } from 'vitest';
import { formatMonth, formatUnitPrice, recentMonths, resolveInvoiceMonth } from './invoice-month';

const now = new Date('2026-11-28T14:00:00Z');

describe('resolveInvoiceMonth', () => {
  it.each<[string | null, string]>([
    [null, '2026-11'],
    ['2026-10', '2026-10'],
    ['2026-11', '2026-11'],
    ['2026-12', '2026-11'],
    ['2026-13', '2026-11'],
    ['last', '2026-11'],
  ])('%j -> %s', (text, month) => {
    expect(resolveInvoiceMonth(text, now)).toBe(month);
  });
});

describe('recentMonths', () => {
  it('counts back across a year', () => {
    expect(recentMonths(new Date('2026-02-10T00:00:00Z'), 4)).toEqual([
      '2026-02',
      '2026-01',
      '2025-12',
      '2025-11',
    ]);
  });
});

describe('formatting', () => {
  it.each([
    [0.0005, '$0.0005'],
    [39, '$39.00'],
    [0.00006, '$0.00006'],
    [2.5, '$2.50'],
  ])('%d -> %s', (price, text) => {
    expect(formatUnitPrice(price)).toBe(text);
  });
  it('names months in UTC', () => {
    expect(formatMonth('2026-11')).toBe('November 2026');
  });
});
