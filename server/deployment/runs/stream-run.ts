import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { Command, type Messages } from '@langchain/langgraph';
import { runInputSchema } from '@contracts/deployment';
import type { ServedGraph } from '../graph/graph-registry';
import { toGraphInput } from '../graph/graph-input';
import type { RunRecord } from '../store/records';
import { publishProtocolEvents } from './protocol-run-stream';
import { isRecord } from '../wire/json-contains';
import { createChunkMapper, graphStreamModes } from './stream-chunks';

type Publish = (event: string, data: unknown) => void;

/**
 * One run's metering (see metering/run-metering.ts). A run executed with `graph.stream` is
 * counted from LangGraph's `tasks` stream chunks: a callback handler would switch on LangChain's
 * callback machinery around every runnable of the run, which cost a fifth of a replica's CPU per
 * rollback flow. A run executed through `streamEvents`, whose callbacks are on anyway, is
 * counted by the handler. One difference: a run resuming a step in which one parallel node had
 * finished before another interrupted streams the finished task again, and it counts again.
 */
export interface RunMeter {
  /** Counts the run, as its graph starts. */
  run(): void;
  /** Counts a node execution from a `tasks` chunk (a task's start). */
  task(payload: unknown): void;
  /** A handler counting the run and its node executions from callback events. */
  handler(): BaseCallbackHandler;
}

type AgentNode = 'agent' | 'tools';

const isAgentNode = (name: string): name is AgentNode => name === 'agent' || name === 'tools';

/**
 * Node names for the graph: the demo graph's own only; a loaded graph takes every name (it is
 * typed as the demo graph, see langgraph-config.ts, so its names are too).
 */
const nodeNames = (nodes: string[], foreign: boolean) =>
  foreign ? (nodes as AgentNode[]) : nodes.filter(isAgentNode);

/** A breakpoint list for the graph: `*`, or node names. */
const breakpoints = (nodes: '*' | string[], foreign: boolean) =>
  nodes === '*' ? nodes : nodeNames(nodes, foreign);

/**
 * What the graph starts from: a command, the run's input, or `null` (resume). The demo graph's
 * input is turned into messages; a loaded graph gets its input as sent, as on the platform.
 */
function graphInput(run: RunRecord, foreign: boolean) {
  const { command } = run.kwargs;
  if (command) {
    // Unknown node names in `goto` are dropped; the update is checked by the messages reducer.
    const goto = nodeNames([command.goto ?? []].flat(), foreign);
    return new Command<unknown, { messages?: Messages }, AgentNode>({
      resume: command.resume,
      ...(goto.length > 0 && { goto }),
      ...(command.update && { update: command.update as { messages?: Messages } }),
    });
  }
  if (foreign) return run.input;
  return run.input ? toGraphInput(runInputSchema.parse(run.input)) : null;
}

/**
 * Executes a run with `graph.stream` (or `streamEvents` when the `events` mode is asked for) and
 * publishes what the client asked for as it comes. Every graph gets the stop `signal`: its
 * stream ends the moment the signal fires, even within a step, and the checkpoint writes still
 * under way then are awaited, and later ones refused, by the run's write fence
 * (store/run-metadata.ts) before a rollback deletes what the run wrote. LangGraph hands it to
 * each node and tool as `config.signal`, on which the demo graph ends its model delay. Resolves
 * with the last state values.
 */
export async function streamRun(
  served: ServedGraph,
  run: RunRecord,
  publish: Publish,
  signal: AbortSignal,
  /** Extra callback handlers for the run (the langsmith tracer, see run-tracing.ts). */
  callbacks: BaseCallbackHandler[] = [],
  /** Which start of the run this is (`run_attempt`, as the platform's). */
  attempt = 1,
  meter?: RunMeter,
): Promise<unknown> {
  const { kwargs } = run;
  const { runtime: graph, foreign = false } = served;
  const config = kwargs.config ?? {};
  const map = createChunkMapper(kwargs);
  let lastValues: unknown = null;
  const emit = (namespace: string[], mode: string, payload: unknown) => {
    if (mode === 'values' && namespace.length === 0) lastValues = payload;
    map(namespace, mode, payload).forEach(([event, data]) => publish(event, data));
  };
  const options = {
    ...config,
    configurable: {
      ...config.configurable,
      thread_id: run.thread_id,
      run_id: run.run_id,
      assistant_id: run.assistant_id,
    },
    ...(isRecord(kwargs.context) && { context: kwargs.context }),
    signal,
    // As the platform: messages-tuple metadata and callback events carry the run's identity.
    runId: run.run_id,
    metadata: {
      ...run.metadata,
      assistant_id: run.assistant_id,
      run_id: run.run_id,
      run_attempt: attempt,
    },
    streamMode: graphStreamModes(kwargs.stream_mode),
    subgraphs: true as const,
    ...(kwargs.interrupt_before && {
      interruptBefore: breakpoints(kwargs.interrupt_before, foreign),
    }),
    ...(kwargs.interrupt_after && { interruptAfter: breakpoints(kwargs.interrupt_after, foreign) }),
    ...(kwargs.recursion_limit && { recursionLimit: kwargs.recursion_limit }),
  };
  // For `streamEvents`, whose callbacks are on anyway: the meter counts through a handler there.
  const eventOptions = () => ({
    ...options,
    callbacks: meter ? [...callbacks, meter.handler()] : callbacks,
  });

  if (kwargs.protocol) {
    const events = await graph.streamEvents(graphInput(run, foreign), {
      ...eventOptions(),
      version: 'v3',
    });
    return publishProtocolEvents(events, publish);
  }

  if (!kwargs.stream_mode.includes('events')) {
    // The `tasks` chunks count node executions; the mapper passes them on only when asked for.
    const streamMode = meter
      ? [...new Set([...options.streamMode, 'tasks' as const])]
      : options.streamMode;
    meter?.run();
    const stream = await graph.stream(graphInput(run, foreign), {
      ...options,
      streamMode,
      ...(callbacks.length > 0 && { callbacks }),
    });
    for await (const [namespace, mode, payload] of stream) {
      if (mode === 'tasks') meter?.task(payload);
      emit(namespace, mode, payload);
    }
    return lastValues;
  }

  const events = graph.streamEvents(graphInput(run, foreign), { ...eventOptions(), version: 'v2' });
  for await (const event of events) {
    // The root graph's own stream chunks are the `[ns, mode, payload]` tuples of `graph.stream`.
    if (event.event === 'on_chain_stream' && event.run_id === run.run_id) {
      const [namespace, mode, payload] = event.data.chunk as [string[], string, unknown];
      emit(namespace, mode, payload);
    } else {
      publish('events', event);
    }
  }
  return lastValues;
}
