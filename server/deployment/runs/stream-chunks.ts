import {
  type AIMessageChunk,
  isAIMessageChunk,
  isBaseMessage,
  isBaseMessageChunk,
} from '@langchain/core/messages';
import type { RunKwargs, StreamMode } from '../store/records';
import { checkpointOf } from '../wire/serialize';

/** A stream mode LangGraph's `graph.stream` itself knows (`events` and `messages-tuple` are ours). */
type GraphStreamMode =
  'values' | 'updates' | 'messages' | 'debug' | 'custom' | 'tasks' | 'checkpoints';

/** One event for the run's SSE stream: its name (`mode` or `mode|ns...`) and its data. */
export type StreamOut = [event: string, data: unknown];

/**
 * The graph stream modes to ask for, given the modes the client asked for (as the platform maps
 * them): `messages-tuple` is LangGraph's `messages`; the legacy `messages` mode is built from
 * LangGraph's `messages` (partials) and `values` (complete); `events` comes from `streamEvents`.
 */
export function graphStreamModes(requested: readonly StreamMode[]): GraphStreamMode[] {
  // `values` always: the last one is the run's result (a stateless wait, the webhook).
  const modes = new Set<GraphStreamMode>(['values']);
  for (const mode of requested) {
    if (mode === 'messages-tuple' || mode === 'messages') modes.add('messages');
    else if (mode !== 'events') modes.add(mode);
  }
  return [...modes];
}

type DebugEvent = { type?: string; payload?: Record<string, unknown> };

/**
 * A debug `checkpoint` event with `checkpoint` and `parent_checkpoint` added beside LangGraph's
 * `config` / `parentConfig`, as the official server sends it (clients resume from them).
 */
function withCheckpoints(event: unknown): unknown {
  const { type, payload } = event as DebugEvent;
  if (type !== 'checkpoint' || !payload) return event;
  const configOf = (value: unknown) => value as Parameters<typeof checkpointOf>[0];
  return {
    ...(event as DebugEvent),
    payload: {
      ...payload,
      checkpoint: checkpointOf(configOf(payload.config)),
      parent_checkpoint: checkpointOf(configOf(payload.parentConfig)),
    },
  };
}

/**
 * Turns the graph's `[namespace, mode, payload]` chunks into the events the client asked for,
 * named and shaped as the official server names them (`values`, `updates|<ns>` for a subgraph,
 * `messages` for `messages-tuple`, `messages/complete` for the legacy `messages` mode, ...).
 */
export function createChunkMapper(kwargs: Pick<RunKwargs, 'stream_mode' | 'stream_subgraphs'>) {
  const requested = new Set<string>(kwargs.stream_mode);
  const completedMessageIds = new Set<string>();
  /** Legacy `messages` mode: each streamed message so far (its chunks concatenated), by id. */
  const partials = new Map<string, AIMessageChunk>();

  /** `messages/metadata` once per message, then `messages/partial` with the text so far. */
  function legacyMessage(payload: unknown): StreamOut[] {
    const [message, metadata] = payload as [unknown, unknown];
    if (!isBaseMessageChunk(message) || !isAIMessageChunk(message) || message.id === undefined) {
      return [];
    }
    const id = message.id;
    const previous = partials.get(id);
    partials.set(id, previous ? previous.concat(message) : message);
    const out: StreamOut[] = previous ? [] : [['messages/metadata', { [id]: { metadata } }]];
    out.push(['messages/partial', [partials.get(id)]]);
    return out;
  }

  return function map(namespace: string[], mode: string, payload: unknown): StreamOut[] {
    if (namespace.length > 0 && !kwargs.stream_subgraphs) return [];
    const named = (name: string) =>
      namespace.length > 0 ? `${name}|${namespace.join('|')}` : name;
    const out: StreamOut[] = [];

    if (mode === 'messages') {
      if (requested.has('messages-tuple')) out.push([named('messages'), payload]);
      if (requested.has('messages') && namespace.length === 0) out.push(...legacyMessage(payload));
    } else if (mode === 'checkpoints' && requested.has('checkpoints')) {
      const { values, metadata, next } = payload as Record<string, unknown>;
      out.push([named('checkpoints'), { values, metadata, next }]);
    } else if (mode === 'debug' && requested.has('debug')) {
      out.push([named('debug'), withCheckpoints(payload)]);
    } else if (requested.has(mode)) {
      out.push([named(mode), payload]);
    }

    if (mode === 'values' && namespace.length === 0 && requested.has('messages')) {
      const messages = (payload as { messages?: unknown }).messages;
      const fresh = (Array.isArray(messages) ? messages : []).filter(
        (message) =>
          isBaseMessage(message) &&
          message.id !== undefined &&
          !completedMessageIds.has(message.id),
      );
      fresh.forEach((message) => completedMessageIds.add(String((message as { id: string }).id)));
      if (fresh.length > 0) out.push(['messages/complete', fresh]);
    }
    return out;
  };
}
