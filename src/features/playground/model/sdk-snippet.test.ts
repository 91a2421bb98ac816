import { describe, expect, it } from 'vitest';
import { buildSdkSnippet, type SnippetScenario } from './sdk-snippet';

const scenario: SnippetScenario = {
  apiUrl: 'http://localhost:5173/_console/deployment',
  needsApiKey: false,
  assistantId: 'agent',
  first: "what's the weather in sf?",
  second: 'say "hi"\nthen stop',
  delayMs: 300,
  sendAfter: 'tool-call',
  strategy: 'rollback',
};

describe('buildSdkSnippet', () => {
  it('replays the scenario with the SDK: stream run 1, wait, create and join run 2, read state', () => {
    const code = buildSdkSnippet(scenario);
    expect(code).toContain("import { Client } from '@langchain/langgraph-sdk';");
    expect(code).toContain('new Client({ apiUrl: "http://localhost:5173/_console/deployment" })');
    expect(code).toContain(`input: input("what's the weather in sf?")`);
    expect(code).toContain('input: input("say \\"hi\\"\\nthen stop")');
    expect(code).toContain('setTimeout(resolve, 300)');
    expect(code).toContain('multitaskStrategy: "rollback"');
    expect(code.indexOf('client.runs.stream(')).toBeLessThan(code.indexOf('client.runs.create('));
    expect(code).toContain('client.runs.joinStream(thread_id, run2.run_id');
    expect(code).toContain('client.threads.getState(thread_id)');
    expect(code).not.toContain('apiKey');
  });

  it.each([
    ['tool-call', 'message.tool_calls?.length', 'its first tool call'],
    ['first-message', 'messages.length > 0', 'its first message'],
  ] as const)('sends run 2 after run 1 streams %s', (sendAfter, check, words) => {
    const code = buildSdkSnippet({ ...scenario, sendAfter });
    expect(code).toContain(check);
    expect(code).toContain(words);
    expect(code.indexOf('await reached;')).toBeLessThan(code.indexOf('setTimeout(resolve, 300)'));
  });

  it('reads the API key from the environment for a deployment by URL, never inlines it', () => {
    const code = buildSdkSnippet({ ...scenario, apiUrl: 'https://x.example', needsApiKey: true });
    expect(code).toContain(
      'new Client({ apiUrl: "https://x.example", apiKey: process.env.LANGGRAPH_API_KEY })',
    );
  });
});
