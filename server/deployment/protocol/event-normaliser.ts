import { isRecord } from '../wire/json-contains';
import type { UnnumberedEvent } from './protocol-types';
import { normaliseState } from './state-normaliser';

/** One event of a run's stream log: `<method>` or `<method>|<namespace...>`, and its data. */
export interface SourceEvent {
  event: string;
  data: unknown;
}

/** An interrupt as `input.requested` carries it. */
export interface InputRequest {
  interrupt_id: string;
  payload: unknown;
}

/** The interrupts in a `__interrupt__` list (or a state holding one). */
export function inputRequestsOf(value: unknown): InputRequest[] {
  const list = isRecord(value) ? value.__interrupt__ : value;
  if (!Array.isArray(list)) return [];
  return list
    .filter(isRecord)
    .flatMap((entry) =>
      typeof entry.id === 'string' ? [{ interrupt_id: entry.id, payload: entry.value }] : [],
    );
}

/** What a source event became: protocol events, and whether it ended the run's stream. */
export interface Normalised {
  events: UnnumberedEvent[];
  /** `failed`: the run failed (its terminal lifecycle is sent); `rolled-back`: it was deleted. */
  end?: 'failed' | 'rolled-back';
}

/**
 * Turns one run's stream-log events (LangGraph's v3 protocol events, see runs/protocol-run-stream.ts)
 * into protocol events, as the official server's `RunProtocolSession` does: the root lifecycle
 * is the session's own (`running` when the run starts, `failed` on its error), interrupts
 * become `input.requested` once each, state payloads are normalised, unknown methods become
 * named `custom` events. Stateful: it remembers the interrupts it has announced.
 */
export function createEventNormaliser(graphName: string) {
  const announced = new Set<string>();

  function inputRequested(namespace: string[], requests: InputRequest[]): UnnumberedEvent[] {
    const fresh = requests.filter((request) => !announced.has(request.interrupt_id));
    fresh.forEach((request) => announced.add(request.interrupt_id));
    return fresh.map((data) => ({ method: 'input.requested', namespace, data }));
  }

  function normalise({ event, data }: SourceEvent): Normalised {
    const [method = '', ...namespace] = event.split('|');
    const at = (eventMethod: string, eventData: unknown, node?: string): Normalised => ({
      events: [{ method: eventMethod, namespace, data: eventData, ...(node && { node }) }],
    });
    switch (method) {
      case 'metadata':
        return at('lifecycle', { event: 'running', graph_name: graphName });
      case 'error': {
        if (isRecord(data) && data.error === 'RunRolledBack')
          return { events: [], end: 'rolled-back' };
        const message =
          isRecord(data) && typeof data.message === 'string' ? data.message : String(data);
        return {
          ...at('lifecycle', { event: 'failed', graph_name: graphName, error: message }),
          end: 'failed',
        };
      }
      case 'lifecycle':
        // The root lifecycle is the session's; a node's or subgraph's is forwarded.
        return namespace.length === 0 ? { events: [] } : at('lifecycle', data);
      case 'values': {
        const requests = inputRequested(namespace, inputRequestsOf(data));
        const values = normaliseState(data);
        const empty = isRecord(values) && Object.keys(values).length === 0;
        return { events: [...requests, ...(empty ? [] : at('values', values).events)] };
      }
      case 'updates': {
        const node = isRecord(data) && typeof data.node === 'string' ? data.node : undefined;
        const values = isRecord(data) ? data.values : data;
        if (node === '__interrupt__')
          return { events: inputRequested(namespace, inputRequestsOf(values)) };
        return at('updates', normaliseState(values), node);
      }
      case 'messages':
      case 'tools':
      case 'custom':
      case 'checkpoints':
      case 'tasks':
        return at(method, data);
      default:
        // A named stream channel (`custom:<name>`) or a method this server does not know.
        return at('custom', { name: method.replace(/^custom:/, ''), payload: data });
    }
  }

  return {
    normalise,
    /** Whether the run asked for input (its end is then `interrupted`, not `completed`). */
    hasPendingInput: () => announced.size > 0,
  };
}
