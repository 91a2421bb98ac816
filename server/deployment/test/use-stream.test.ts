// @vitest-environment jsdom
// The React hook runs in jsdom; the embedded server runs in the same process over real HTTP.
import { useStream } from '@langchain/langgraph-sdk/react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { NYC, NYC_RUN, SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 120 });

interface Shown {
  type: string;
  content: unknown;
  tool_calls?: Array<{ args: { city?: string } }>;
}

/** Messages as the hook shows them, in the short form `conversation()` uses. */
function shown(messages: readonly Shown[]): string[] {
  return messages.map((message) => {
    const call = message.tool_calls?.[0];
    if (message.type === 'ai' && call) return `ai: get_weather(${String(call.args.city)})`;
    return `${message.type}: ${String(message.content)}`;
  });
}

function renderStream(threadId: string | null) {
  const counts: number[] = [];
  const hook = renderHook(() => {
    const stream = useStream({ apiUrl: deployment.url, assistantId: 'agent', threadId });
    counts.push(stream.messages.length);
    return stream;
  });
  return { hook, counts };
}

const messagesOf = (stream: { messages: readonly unknown[] }) =>
  shown(stream.messages as readonly Shown[]);

describe('useStream against the embedded server', () => {
  it('submit streams the messages in as the run makes them', async () => {
    const { hook, counts } = renderStream(null);
    act(() => void hook.result.current.submit(userInput(SF)));

    await waitFor(() => expect(messagesOf(hook.result.current)).toEqual(SF_RUN), {
      timeout: 10_000,
    });
    await waitFor(() => expect(hook.result.current.isLoading).toBe(false));
    // Seen one step at a time, not only at the end.
    expect(counts).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(hook.result.current.error).toBeUndefined();
    hook.unmount();
  });

  it('double-texting with rollback: the first stream ends, the thread shows run 2 only', async () => {
    // The hook hands a stream's error to console.error as well as to `error`: the first run's
    // "rolled back" is expected, so it is held here and asserted, and nothing else may be printed.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => printed.mockRestore());
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = renderStream(thread_id).hook;
    const second = renderStream(thread_id).hook;

    act(() => void first.result.current.submit(userInput(SF)));
    await waitFor(() => expect(first.result.current.messages.length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    const sentAt = Date.now();
    act(() => void second.result.current.submit(userInput(NYC), { multitaskStrategy: 'rollback' }));

    await waitFor(() => expect(first.result.current.isLoading).toBe(false), { timeout: 1000 });
    expect(Date.now() - sentAt).toBeLessThan(1000);
    expect(String(first.result.current.error)).toMatch(/rolled back/);
    expect(printed.mock.calls).toEqual([[first.result.current.error]]);

    await waitFor(() => expect(messagesOf(second.result.current)).toEqual(NYC_RUN), {
      timeout: 10_000,
    });
    await waitFor(() => expect(second.result.current.isLoading).toBe(false));
    expect(await conversation(client, thread_id)).toEqual(NYC_RUN);
    first.unmount();
    second.unmount();
  });
});
