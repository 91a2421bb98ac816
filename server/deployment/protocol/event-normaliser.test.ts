import { describe, expect, it } from 'vitest';
import { createEventNormaliser } from './event-normaliser';
import { normaliseState } from './state-normaliser';

const interrupt = { id: 'i1', value: { question: 'ok?' } };
const human = {
  type: 'human',
  content: 'hi',
  id: 'h1',
  additional_kwargs: {},
  response_metadata: {},
};

describe('createEventNormaliser: a run stream-log event -> protocol events', () => {
  it.each([
    [
      'metadata',
      { run_id: 'r' },
      {
        events: [
          { method: 'lifecycle', namespace: [], data: { event: 'running', graph_name: 'agent' } },
        ],
      },
    ],
    [
      'error',
      { error: 'GraphRecursionError', message: 'too deep' },
      {
        events: [
          {
            method: 'lifecycle',
            namespace: [],
            data: { event: 'failed', graph_name: 'agent', error: 'too deep' },
          },
        ],
        end: 'failed',
      },
    ],
    ['error', { error: 'RunRolledBack', message: 'gone' }, { events: [], end: 'rolled-back' }],
    ['lifecycle', { event: 'running' }, { events: [] }],
    [
      'lifecycle|agent:1',
      { event: 'started', graph_name: 'agent' },
      {
        events: [
          {
            method: 'lifecycle',
            namespace: ['agent:1'],
            data: { event: 'started', graph_name: 'agent' },
          },
        ],
      },
    ],
    [
      'values',
      { messages: [human] },
      {
        events: [
          {
            method: 'values',
            namespace: [],
            data: { messages: [{ type: 'human', content: 'hi', id: 'h1' }] },
          },
        ],
      },
    ],
    [
      'values',
      { __interrupt__: [interrupt] },
      {
        events: [
          {
            method: 'input.requested',
            namespace: [],
            data: { interrupt_id: 'i1', payload: { question: 'ok?' } },
          },
        ],
      },
    ],
    [
      'updates',
      { node: 'agent', values: { messages: [human] } },
      {
        events: [
          {
            method: 'updates',
            namespace: [],
            node: 'agent',
            data: { messages: [{ type: 'human', content: 'hi', id: 'h1' }] },
          },
        ],
      },
    ],
    [
      'updates',
      { node: '__interrupt__', values: [interrupt] },
      {
        events: [
          {
            method: 'input.requested',
            namespace: [],
            data: { interrupt_id: 'i1', payload: { question: 'ok?' } },
          },
        ],
      },
    ],
    [
      'messages|agent:1',
      { event: 'message-start', id: 'm' },
      {
        events: [
          { method: 'messages', namespace: ['agent:1'], data: { event: 'message-start', id: 'm' } },
        ],
      },
    ],
    [
      'custom',
      { payload: 1 },
      { events: [{ method: 'custom', namespace: [], data: { payload: 1 } }] },
    ],
    [
      'custom:progress',
      50,
      { events: [{ method: 'custom', namespace: [], data: { name: 'progress', payload: 50 } }] },
    ],
  ])('%s %j', (event, data, expected) => {
    expect(createEventNormaliser('agent').normalise({ event, data })).toEqual(expected);
  });

  it('announces an interrupt once, however many events carry it', () => {
    const normaliser = createEventNormaliser('agent');
    const first = normaliser.normalise({
      event: 'updates',
      data: { node: '__interrupt__', values: [interrupt] },
    });
    const again = normaliser.normalise({ event: 'values', data: { __interrupt__: [interrupt] } });
    expect(first.events).toHaveLength(1);
    expect(again.events).toEqual([]);
    expect(normaliser.hasPendingInput()).toBe(true);
  });
});

describe('normaliseState: state messages as the official server sends them', () => {
  it.each([
    [
      { messages: [{ type: 'user', content: 'x' }] },
      { messages: [{ type: 'human', content: 'x' }] },
    ],
    [
      {
        messages: [
          {
            type: 'ai',
            content: '',
            id: 'a',
            tool_calls: [{ id: 'c', name: 'get_weather', args: { city: 'sf' } }],
            invalid_tool_calls: [],
          },
        ],
      },
      {
        messages: [
          {
            type: 'ai',
            content: '',
            id: 'a',
            tool_calls: [{ id: 'c', name: 'get_weather', args: { city: 'sf' }, type: 'tool_call' }],
          },
        ],
      },
    ],
    [
      {
        messages: [
          {
            type: 'tool',
            content: 'sunny',
            tool_call_id: 'c',
            status: 'success',
            name: 'get_weather',
          },
        ],
      },
      {
        messages: [
          {
            type: 'tool',
            content: 'sunny',
            tool_call_id: 'c',
            status: 'success',
            name: 'get_weather',
          },
        ],
      },
    ],
    [{ count: 2, __interrupt__: [interrupt] }, { count: 2 }],
    ['plain', 'plain'],
  ])('%j', (input, expected) => {
    expect(normaliseState(input)).toEqual(expected);
  });
});
