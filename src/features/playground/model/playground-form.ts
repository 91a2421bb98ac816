// zod/mini, as everywhere in the SPA: classic zod would add ~10 KB of brotli to the usage tab's
// first load (the two share zod's core, and the bundler puts all of it in the entry chunk).
import { z } from 'zod/mini';
import { multitaskStrategySchema } from '@contracts/deployment';
import type { Connection } from './connection';

/** A trimmed string, required when `message` says what to enter. */
const trimmed = (message?: string) =>
  message ? z.string().check(z.trim(), z.minLength(1, message)) : z.string().check(z.trim());

export const playgroundFormSchema = z
  .object({
    first: trimmed('Enter the first message.'),
    second: trimmed('Enter the second message.'),
    delaySeconds: z
      .number({ error: 'Enter the delay in seconds (0 is allowed).' })
      .check(
        z.gte(0, 'The delay cannot be negative.'),
        z.lte(60, 'Keep the delay under a minute.'),
      ),
    sendAfter: z.enum(['tool-call', 'first-message']),
    strategy: multitaskStrategySchema,
    deployment: z.enum(['embedded', 'url']),
    url: trimmed(),
    apiKey: trimmed(),
    assistantId: trimmed('Enter an assistant id or graph name.'),
  })
  .check(
    z.superRefine((values, context) => {
      if (values.deployment !== 'url') return;
      if (!isHttpUrl(values.url)) {
        context.addIssue({
          code: 'custom',
          path: ['url'],
          message: 'Enter the deployment URL, starting with http:// or https://.',
        });
      }
    }),
  );

export type PlaygroundFormInput = z.input<typeof playgroundFormSchema>;
export type PlaygroundFormValues = z.output<typeof playgroundFormSchema>;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The issue's demo. Run 2 goes as soon as run 1 has streamed its first tool call: run 1 is then
 * provably running (its tool and a model step are still to come) at any model pace, where a
 * fixed 2 s delay missed it with a brisk model (300 ms steps) and demonstrated nothing.
 */
export const defaultPlaygroundValues: PlaygroundFormInput = {
  first: "what's the weather in sf?",
  second: "what's the weather in nyc?",
  delaySeconds: 0,
  sendAfter: 'tool-call',
  strategy: 'rollback',
  deployment: 'embedded',
  url: '',
  apiKey: '',
  assistantId: 'agent',
};

/** The connection a validated form describes; a trailing slash of the URL is dropped. */
export function toConnection(values: PlaygroundFormValues): Connection {
  if (values.deployment === 'embedded') return { kind: 'embedded' };
  return { kind: 'url', url: values.url.replace(/\/+$/, ''), apiKey: values.apiKey };
}
