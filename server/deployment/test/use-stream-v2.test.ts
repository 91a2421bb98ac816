// @vitest-environment jsdom
// `@langchain/react` 1.1 (npm latest) speaks protocol v2 only: it mints the thread id, sends
// `run.start` to /commands and reads /stream/events. The server runs in-process over real HTTP.
import { useStream } from '@langchain/react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  conversation,
  failureStatus,
  userInput,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

// Steps long enough that a cancel or a second submit lands mid-run on a loaded machine.

// jsdom's Uint8Array is not Node's: esbuild (the ui bundler the server loads) checks that
// TextEncoder's output is a Uint8Array of this realm, so it gets one.
vi.hoisted(() => {
  const NodeEncoder = globalThis.TextEncoder;
  globalThis.TextEncoder = class extends NodeEncoder {
    override encode(input?: string): Uint8Array<ArrayBuffer> {
      return new Uint8Array(super.encode(input));
    }
  };
});

const deployment = useTestDeployment({ stepMs: 250 });

interface Shown {
  type: string;
  content: unknown;
  tool_calls?: Array<{ args: { city?: string } }>;
}

/** Text of a message's content: a string, or its text blocks (the hook assembles blocks). */
const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : (content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

/** Messages as the hook shows them, in the short form `conversation()` uses. */
const shown = (stream: { messages: readonly unknown[] }) =>
  (stream.messages as readonly Shown[]).map((message) => {
    const call = message.tool_calls?.[0];
    if (message.type === 'ai' && call) return `ai: get_weather(${String(call.args.city)})`;
    return `${message.type}: ${textOf(message.content)}`;
  });

/** The WebSocket URLs the hook opened (jsdom's WebSocket), to know which transport it used. */
const opened: string[] = [];
const webSocketFactory = (url: string) => {
  opened.push(url);
  return new WebSocket(url);
};

function renderStream(threadId?: string, transport: 'sse' | 'websocket' = 'sse') {
  const counts: number[] = [];
  const hook = renderHook(() => {
    const stream = useStream({
      apiUrl: deployment.url,
      assistantId: 'agent',
      threadId,
      transport,
      webSocketFactory,
    });
    counts.push(stream.messages.length);
    return stream;
  });
  return { hook, counts };
}

describe('@langchain/react 1.1 useStream against the embedded server (protocol v2)', () => {
  it.each(['sse', 'websocket'] as const)(
    'over %s: submit creates the thread and the messages come in as the run makes them',
    async (transport) => {
      const { hook, counts } = renderStream(undefined, transport);
      act(() => void hook.result.current.submit(userInput(SF)));

      await waitFor(() => expect(shown(hook.result.current)).toEqual(SF_RUN), { timeout: 10_000 });
      await waitFor(() => expect(hook.result.current.isLoading).toBe(false));
      expect(hook.result.current.error).toBeUndefined();
      // Seen step by step (some render between the question and the answer), not only at the end.
      expect(counts.some((count) => count > 1 && count < 4)).toBe(true);
      const { threadId } = hook.result.current;
      expect(await conversation(deployment.client, threadId ?? '')).toEqual(SF_RUN);
      const socketUrl = `${deployment.url.replace('http', 'ws')}/threads/${threadId ?? ''}/stream/events`;
      expect(opened.includes(socketUrl)).toBe(transport === 'websocket');
      hook.unmount();
    },
  );

  it('double-texting with rollback: both views end on run 2 alone, run 1 is gone', async () => {
    const { client } = deployment;
    const first = renderStream().hook;
    act(() => void first.result.current.submit(userInput(SF)));
    await waitFor(() => expect(first.result.current.messages.length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    const threadId = first.result.current.threadId ?? '';
    const [run1] = await client.runs.list(threadId);
    expect(run1?.status).toBe('running');

    const second = renderStream(threadId).hook;
    act(() => void second.result.current.submit(userInput(NYC), { multitaskStrategy: 'rollback' }));

    await waitFor(() => expect(shown(second.result.current)).toEqual(NYC_RUN), { timeout: 10_000 });
    await waitFor(() => expect(second.result.current.isLoading).toBe(false));
    // The first view follows the thread: run 1's messages are replaced by run 2's.
    await waitFor(() => expect(shown(first.result.current)).toEqual(NYC_RUN));
    await waitFor(() => expect(first.result.current.isLoading).toBe(false));
    expect(first.result.current.error).toBeUndefined();
    expect(second.result.current.error).toBeUndefined();
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    expect(await failureStatus(client.runs.get(threadId, run1?.run_id ?? ''))).toBe(404);
    first.unmount();
    second.unmount();
  });

  it('stop cancels the run through the v1 cancel route; the thread keeps what it wrote', async () => {
    const { client } = deployment;
    const { hook } = renderStream();
    act(() => void hook.result.current.submit(userInput(SF)));
    await waitFor(() => expect(hook.result.current.messages.length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    const threadId = hook.result.current.threadId ?? '';
    await act(() => hook.result.current.stop());

    await waitFor(() => expect(hook.result.current.isLoading).toBe(false));
    const [run] = await client.runs.list(threadId);
    await waitFor(async () =>
      expect((await client.runs.get(threadId, run?.run_id ?? '')).status).toBe('interrupted'),
    );
    const kept = await conversation(client, threadId);
    expect(kept.slice(0, 2)).toEqual(SF_RUN.slice(0, 2));
    expect(kept.length).toBeLessThan(4);
    hook.unmount();
  });
});
