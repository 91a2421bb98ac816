import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MessageContent } from '@contracts/deployment';
import type { ThreadMessage } from '@/features/playground/model/thread-messages';
import { describeMessages } from '@/features/playground/model/message-origins';
import { classifyRunFate } from '@/features/playground/model/run-fate';
import type { StreamedMessage } from '@/features/playground/model/streamed-messages';
import { streamedAs, weatherRun } from '@/features/playground/testing/make-outcome';
import { ThreadMessages } from './thread-messages';

function nth(items: HTMLElement[], index: number): HTMLElement {
  const item = items[index];
  if (!item) throw new Error(`no message at ${index}; there are ${items.length}`);
  return item;
}

const deleted = classifyRunFate({
  strategy: 'rollback',
  rejection: null,
  run1Lookup: { kind: 'http-error', status: 404, message: 'gone' },
});

function renderMessages(
  messages: ThreadMessage[],
  streamed: StreamedMessage[] = [],
  fate = deleted,
) {
  const { kept, erased } = describeMessages(messages, streamed);
  render(<ThreadMessages kept={kept} erased={erased} fate={fate} idPrefix="t" />);
  return within(screen.getByRole('list', { name: 'Thread messages' }))
    .getAllByRole('listitem')
    .filter((item) => item.parentElement?.getAttribute('aria-label') === 'Thread messages');
}

const rollbackThread: ThreadMessage[] = [
  { type: 'human', content: "what's the weather in nyc?", id: 'h' },
  {
    type: 'ai',
    content: '',
    id: 'a1',
    tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'nyc' } }],
  },
  {
    type: 'tool',
    content: "It's 90 degrees and sunny in New York.",
    tool_call_id: 'c1',
    name: 'get_weather',
    id: 't',
  },
  { type: 'ai', content: 'Here is the weather: sunny.', id: 'a2', tool_calls: [] },
];

describe('ThreadMessages', () => {
  it('shows a rollback thread as four messages in order, one per kind', () => {
    const items = renderMessages(rollbackThread);
    expect(items).toHaveLength(4);
    expect(nth(items, 0)).toHaveTextContent(/^Human.*what's the weather in nyc\?$/);
    expect(nth(items, 1)).toHaveTextContent(/^AI · tool call/);
    expect(nth(items, 2)).toHaveTextContent(/^Tool result · get_weather.*90 degrees/);
    expect(nth(items, 3)).toHaveTextContent(/^AI.*Here is the weather: sunny\.$/);
    expect(screen.getByRole('heading', { name: /Thread messages \(4\)/ })).toBeVisible();
  });

  it('shows a tool call as a chip with the tool name and its arguments', () => {
    const items = renderMessages(rollbackThread);
    const chip = within(within(nth(items, 1)).getByRole('list', { name: 'Tool calls' })).getByRole(
      'listitem',
    );
    expect(chip).toHaveTextContent('get_weather{"city":"nyc"}');
  });

  it('shows every tool call of a message that makes several', () => {
    const items = renderMessages([
      {
        type: 'ai',
        content: 'Let me check both.',
        tool_calls: [
          { name: 'get_weather', args: { city: 'sf' } },
          { name: 'get_time', args: {} },
        ],
      },
    ]);
    expect(nth(items, 0)).toHaveTextContent('Let me check both.');
    const chips = within(nth(items, 0)).getAllByRole('listitem');
    expect(chips.map((chip) => chip.textContent)).toEqual([
      'get_weather{"city":"sf"}',
      'get_time{}',
    ]);
  });

  const contents: [string, MessageContent, string][] = [
    ['a string', 'plain text', 'plain text'],
    ['an array of text parts', [{ type: 'text', text: 'from parts' }], 'from parts'],
    [
      'an array with a non-text part',
      [
        { type: 'text', text: 'see' },
        { type: 'image_url', image_url: 'x' },
      ],
      'see [image_url]',
    ],
  ];
  const kinds: [string, (content: MessageContent) => ThreadMessage][] = [
    ['human', (content) => ({ type: 'human', content })],
    ['ai', (content) => ({ type: 'ai', content, tool_calls: [] })],
    ['tool', (content) => ({ type: 'tool', content, tool_call_id: 'c' })],
    ['system', (content) => ({ type: 'system', content })],
  ];
  it.each(
    kinds.flatMap(([kind, make]) =>
      contents.map(([name, content, text]) => [kind, name, make(content), text] as const),
    ),
  )('renders a %s message with content given as %s', (_kind, _name, message, text) => {
    const item = nth(renderMessages([message]), 0);
    expect(item.querySelector('.message-text')).toHaveTextContent(text);
  });

  it.each<[ThreadMessage, string]>([
    [{ type: 'system', content: 'be brief' }, 'System'],
    [{ type: 'tool', content: 'ok', tool_call_id: 'c' }, 'Tool result'],
    [{ type: 'other', originalType: 'function', content: 'x' }, 'function'],
  ])('labels %j as %s', (message, label) => {
    const item = nth(renderMessages([message]), 0);
    expect(item.firstElementChild).toHaveTextContent(new RegExp(`^${label}$`));
  });

  it('marks what run 1 left after an interrupt and flags its unanswered tool call', () => {
    const sf = weatherRun('sf', 'r1').slice(0, 2);
    const nyc = weatherRun('nyc', 'r2');
    const interrupted = classifyRunFate({
      strategy: 'interrupt',
      rejection: null,
      run1Lookup: { kind: 'found', status: 'interrupted' },
    });
    const items = renderMessages(
      [...sf, ...nyc],
      [...streamedAs(1, sf), ...streamedAs(2, nyc)],
      interrupted,
    );
    expect(nth(items, 0)).toHaveTextContent('Run 1 · interrupted, kept');
    expect(nth(items, 1)).toHaveTextContent(
      'Tool call without a tool answer: a model provider rejects this history.',
    );
    expect(nth(items, 2)).toHaveTextContent('Run 2');
    expect(nth(items, 5)).not.toHaveTextContent('without a tool answer');
    expect(screen.queryByRole('list', { name: 'Erased messages' })).toBeNull();
  });

  it('says so when the thread is empty', () => {
    render(<ThreadMessages kept={[]} erased={[]} fate={deleted} idPrefix="t" />);
    expect(screen.getByText('The thread holds no messages.')).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Thread messages' })).toBeNull();
  });
});
