import { describe, expect, it } from 'vitest';
import { unreadLinkValues } from './unread-link-values';

describe('unreadLinkValues', () => {
  it.each([
    ['', []],
    ['period=6m&aggregation=calendar-month&group_by=user&price=4', []],
    ['period=custom&from=2026-08-01&to=2026-08-31&aggregation=hourly', []],
    // The URL parser reads a number's prefix, so this one is read as $2.50.
    ['price=2.5usd', []],
    ['period=6mo', [{ param: 'period', value: '6mo' }]],
    ['aggregation=calendar', [{ param: 'aggregation', value: 'calendar' }]],
    ['group_by=team', [{ param: 'group_by', value: 'team' }]],
    ['group_by=', [{ param: 'group_by', value: '' }]],
    ['price=abc', [{ param: 'price', value: 'abc' }]],
    ['price=-1', [{ param: 'price', value: '-1' }]],
    [
      'period=Last%2030%20days&price=free',
      [
        { param: 'period', value: 'Last 30 days' },
        { param: 'price', value: 'free' },
      ],
    ],
  ])('?%s', (search, expected) => {
    expect(unreadLinkValues(Object.fromEntries(new URLSearchParams(search)))).toEqual(expected);
  });
});
