import type { MultitaskStrategy } from '@contracts/deployment';

export interface SnippetScenario {
  apiUrl: string;
  /** Whether the deployment needs an API key (a URL typed in the form). */
  needsApiKey: boolean;
  assistantId: string;
  first: string;
  second: string;
  delayMs: number;
  /** The moment of run 1 the delay counts from (see run-double-text.ts). */
  sendAfter: 'tool-call' | 'first-message';
  strategy: MultitaskStrategy;
}

const str = (text: string) => JSON.stringify(text);

/**
 * A runnable TypeScript module (`npx tsx double-text.mts`) that replays the form's scenario with
 * `@langchain/langgraph-sdk`: the same calls the playground makes, printed instead of drawn.
 */
export function buildSdkSnippet(scenario: SnippetScenario): string {
  const key = scenario.needsApiKey ? ', apiKey: process.env.LANGGRAPH_API_KEY' : '';
  return `// npm install @langchain/langgraph-sdk && npx tsx double-text.mts
import { Client } from '@langchain/langgraph-sdk';

const client = new Client({ apiUrl: ${str(scenario.apiUrl)}${key} });
const assistantId = ${str(scenario.assistantId)};
const input = (content: string) => ({ messages: [{ role: 'user', content }] });
const { thread_id } = await client.threads.create();

// Run 1 streams its messages while run 2 is sent: once it has streamed its first ${scenario.sendAfter === 'tool-call' ? 'tool call' : 'message'}.
let moment: () => void = () => undefined;
const reached = new Promise<void>((resolve) => (moment = resolve));
const run1 = (async () => {
  const stream = client.runs.stream(thread_id, assistantId, {
    input: input(${str(scenario.first)}),
    streamMode: 'values',
  });
  for await (const part of stream) {
    console.log('run 1', part.event, JSON.stringify(part.data));
    const messages = (part.data as { messages?: { tool_calls?: unknown[] }[] } | null)?.messages ?? [];
    if (${scenario.sendAfter === 'tool-call' ? 'messages.some((message) => (message.tool_calls?.length ?? 0) > 0)' : 'messages.length > 0'}) moment();
  }
  moment();
})();

await reached;
await new Promise((resolve) => setTimeout(resolve, ${Math.round(scenario.delayMs)}));
try {
  const run2 = await client.runs.create(thread_id, assistantId, {
    input: input(${str(scenario.second)}),
    multitaskStrategy: ${str(scenario.strategy)},
  });
  const stream = client.runs.joinStream(thread_id, run2.run_id, { streamMode: 'values' });
  for await (const part of stream) console.log('run 2', part.event, JSON.stringify(part.data));
} catch (error) {
  // "reject" refuses run 2 with 409 while run 1 is busy.
  console.log('run 2 refused:', error);
}
await run1;

const state = await client.threads.getState(thread_id);
console.log('thread messages', JSON.stringify(state.values, null, 2));
`;
}
