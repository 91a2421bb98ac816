import {
  parseAsFloat,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
  type inferParserType,
} from '@/lib/url-state';
import { useCallback, useMemo } from 'react';
import { multitaskStrategySchema } from '@contracts/deployment';
import {
  defaultPlaygroundValues as defaults,
  type PlaygroundFormInput,
} from '@/features/playground/model/playground-form';

/**
 * The whole form in the URL, so a demo can be shared and reloaded:
 * `?first=…&second=…&after=first-message&delay=0.3&strategy=interrupt&deployment=url&url=https://…&assistant=agent`.
 * Defaults stay out of the URL. The API key never goes in it.
 */
const playgroundUrlParsers = {
  first: parseAsString.withDefault(defaults.first),
  second: parseAsString.withDefault(defaults.second),
  delay: parseAsFloat.withDefault(defaults.delaySeconds),
  after: parseAsStringLiteral(['tool-call', 'first-message'] as const).withDefault('tool-call'),
  strategy: parseAsStringLiteral(multitaskStrategySchema.options).withDefault(defaults.strategy),
  deployment: parseAsStringLiteral(['embedded', 'url'] as const).withDefault('embedded'),
  url: parseAsString.withDefault(''),
  assistant: parseAsString.withDefault(defaults.assistantId),
};

type PlaygroundUrlState = inferParserType<typeof playgroundUrlParsers>;

/** Form values from the URL (the API key always starts empty). */
export function formValuesFromUrl(state: PlaygroundUrlState): PlaygroundFormInput {
  return {
    first: state.first,
    second: state.second,
    delaySeconds: state.delay,
    sendAfter: state.after,
    strategy: state.strategy,
    deployment: state.deployment,
    url: state.url,
    apiKey: '',
    assistantId: state.assistant,
  };
}

/** The URL's form values, and a writer that mirrors form edits into the URL (no history entry). */
export function usePlaygroundUrl() {
  const [state, setState] = useQueryStates(playgroundUrlParsers, { history: 'replace' });
  const values = useMemo(() => formValuesFromUrl(state), [state]);
  const save = useCallback(
    (input: Partial<PlaygroundFormInput>) =>
      void setState({
        first: input.first ?? null,
        second: input.second ?? null,
        // An emptied delay field reads NaN: leave it out rather than write "NaN".
        delay: Number.isFinite(input.delaySeconds) ? (input.delaySeconds ?? null) : null,
        after: input.sendAfter ?? null,
        strategy: input.strategy ?? null,
        deployment: input.deployment ?? null,
        url: input.url === '' ? null : (input.url ?? null),
        assistant: input.assistantId ?? null,
      }),
    [setState],
  );
  return { values, save };
}
