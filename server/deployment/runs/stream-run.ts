import type { Callbacks } from '@langchain/core/callbacks/manager';
import { Command, type Messages } from '@langchain/langgraph';
import type { AgentGraph } from '../graph/agent-graph';
import { toGraphInput } from '../graph/graph-input';
import type { RunRecord } from '../store/run-store';
import { createChunkMapper, graphStreamModes } from './stream-chunks';

type Publish = (event: string, data: unknown) => void;
type AgentNode = 'agent' | 'tools';

const isAgentNode = (name: string): name is AgentNode => name === 'agent' || name === 'tools';

/** A breakpoint list for the graph: `*`, or the named nodes the graph has. */
const breakpoints = (nodes: '*' | string[]) => (nodes === '*' ? nodes : nodes.filter(isAgentNode));

/** What the graph starts from: a command, the run's input messages, or `null` (resume). */
function graphInput(run: RunRecord) {
  const { command } = run.kwargs;
  if (command) {
    // Unknown node names in `goto` are dropped; the update is checked by the messages reducer.
    const goto = [command.goto ?? []].flat().filter(isAgentNode);
    return new Command<unknown, { messages?: Messages }, AgentNode>({
      resume: command.resume,
      ...(goto.length > 0 && { goto }),
      ...(command.update && { update: command.update as { messages?: Messages } }),
    });
  }
  return run.input ? toGraphInput(run.input) : null;
}

/**
 * Executes a run with `graph.stream` (or `streamEvents` when the `events` mode is asked for) and
 * publishes what the client asked for as it comes. Like `invoke`, it settles only after the
 * graph's last checkpoint write, which the rollback relies on. The stop signal is not passed
 * here (see graph/stop-signals.ts): the nodes throw instead. Resolves with the last state values.
 */
export async function streamRun(
  graph: AgentGraph,
  run: RunRecord,
  publish: Publish,
  /** Extra callback handlers for the run (the langsmith tracer, see run-tracing.ts). */
  callbacks?: Callbacks,
): Promise<unknown> {
  const { kwargs } = run;
  const map = createChunkMapper(kwargs);
  let lastValues: unknown = null;
  const emit = (namespace: string[], mode: string, payload: unknown) => {
    if (mode === 'values' && namespace.length === 0) lastValues = payload;
    map(namespace, mode, payload).forEach(([event, data]) => publish(event, data));
  };
  const options = {
    configurable: { thread_id: run.thread_id },
    // As the platform: messages-tuple metadata and callback events carry the run's identity.
    runId: run.run_id,
    metadata: {
      ...run.metadata,
      assistant_id: run.assistant_id,
      run_id: run.run_id,
      run_attempt: 1,
    },
    streamMode: graphStreamModes(kwargs.stream_mode),
    subgraphs: true as const,
    ...(kwargs.interrupt_before && { interruptBefore: breakpoints(kwargs.interrupt_before) }),
    ...(kwargs.interrupt_after && { interruptAfter: breakpoints(kwargs.interrupt_after) }),
    ...(kwargs.recursion_limit && { recursionLimit: kwargs.recursion_limit }),
    ...(callbacks && { callbacks }),
  };

  if (!kwargs.stream_mode.includes('events')) {
    const stream = await graph.stream(graphInput(run), options);
    for await (const [namespace, mode, payload] of stream) emit(namespace, mode, payload);
    return lastValues;
  }

  const events = graph.streamEvents(graphInput(run), { ...options, version: 'v2' });
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
