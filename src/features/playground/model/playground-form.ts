import { z } from 'zod';
import { multitaskStrategySchema } from '@contracts/deployment';
import type { Connection } from './connection';

export const playgroundFormSchema = z
  .object({
    first: z.string().trim().min(1, 'Enter the first message.'),
    second: z.string().trim().min(1, 'Enter the second message.'),
    delaySeconds: z
      .number({ error: 'Enter the delay in seconds (0 is allowed).' })
      .min(0, 'The delay cannot be negative.')
      .max(60, 'Keep the delay under a minute.'),
    strategy: multitaskStrategySchema,
    deployment: z.enum(['embedded', 'url']),
    url: z.string().trim(),
    apiKey: z.string().trim(),
    assistantId: z.string().trim().min(1, 'Enter an assistant id or graph name.'),
  })
  .superRefine((values, context) => {
    if (values.deployment !== 'url') return;
    if (!isHttpUrl(values.url)) {
      context.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'Enter the deployment URL, starting with http:// or https://.',
      });
    }
  });

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

/** The issue's demo: run 1 is still busy when the second message arrives 2 s later. */
export const defaultPlaygroundValues: PlaygroundFormInput = {
  first: "what's the weather in sf?",
  second: "what's the weather in nyc?",
  delaySeconds: 2,
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
