import { type BaseMessage, isAIMessage, ToolMessage } from '@langchain/core/messages';
import type { AgentGraph } from './agent-graph';

export const CANCELLED_TOOL_CALL =
  'Cancelled: the server stopped while this tool call ran; it was not resumed.';

/**
 * Answers every tool call of the thread's last AI message that has no tool message, with a tool
 * message saying it was cancelled. A model (ours or a real one) must see each call answered:
 * without this, the next run builds on a conversation whose last call never got a result. The
 * update is written as the `agent` node so the graph ends there (no pending step is left).
 * Returns how many calls were answered.
 */
export async function answerDanglingToolCalls(graph: AgentGraph, threadId: string) {
  const config = { configurable: { thread_id: threadId } };
  const state = await graph.getState(config);
  const messages = (state.values as { messages?: BaseMessage[] }).messages ?? [];
  const lastAi = messages.findLast((message) => isAIMessage(message));
  const answered = new Set(
    messages.flatMap((message) => (ToolMessage.isInstance(message) ? [message.tool_call_id] : [])),
  );
  const dangling = (lastAi && isAIMessage(lastAi) ? (lastAi.tool_calls ?? []) : []).filter(
    (call) => call.id !== undefined && !answered.has(call.id),
  );
  if (dangling.length === 0) return 0;
  await graph.updateState(
    config,
    {
      messages: dangling.map(
        (call) =>
          new ToolMessage({
            content: CANCELLED_TOOL_CALL,
            tool_call_id: call.id ?? '',
            name: call.name,
            status: 'error',
          }),
      ),
    },
    'agent',
  );
  return dangling.length;
}
