import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useCompareStrategies } from '@/features/playground/api/use-compare-strategies';
import { useDoubleText } from '@/features/playground/api/use-double-text';
import { usePlaygroundUrl } from '@/features/playground/hooks/use-playground-url';
import {
  playgroundFormSchema,
  toConnection,
  type PlaygroundFormInput,
  type PlaygroundFormValues,
} from '@/features/playground/model/playground-form';
import { CompareView } from './compare-view';
import { CopySdkCode } from './copy-sdk-code';
import { DoubleTextView } from './double-text-view';
import { PlaygroundForm } from './playground-form';
import '@/features/playground/playground.css';

function toRequest(values: PlaygroundFormValues) {
  return {
    connection: toConnection(values),
    assistantId: values.assistantId,
    first: values.first,
    second: values.second,
    delayMs: Math.round(values.delaySeconds * 1000),
    sendAfter: values.sendAfter,
  };
}

/** Fires a double-texted conversation at a deployment and shows what survives. */
export function RollbackPlayground() {
  const url = usePlaygroundUrl();
  const form = useForm<PlaygroundFormInput, unknown, PlaygroundFormValues>({
    resolver: zodResolver(playgroundFormSchema),
    // Read once: the URL then follows the form, not the other way round.
    defaultValues: url.values,
  });
  const { save } = url;
  // Every edit goes to the URL, so a reload or a shared link shows the same form.
  const { subscribe } = form;
  useEffect(
    () => subscribe({ formState: { values: true }, callback: ({ values }) => save(values) }),
    [subscribe, save],
  );
  const doubleText = useDoubleText();
  const compare = useCompareStrategies();
  const [view, setView] = useState<'single' | 'compare' | null>(null);
  const busy = doubleText.isPending || compare.isPending;

  return (
    <FormProvider {...form}>
      <div className="pg-stack">
        <section className="panel" aria-label="Playground">
          <PlaygroundForm
            busy={busy}
            onRun={(values) => {
              setView('single');
              doubleText.mutate({ ...toRequest(values), strategy: values.strategy });
            }}
            onCompare={(values) => {
              setView('compare');
              compare.mutate(toRequest(values));
            }}
            onCancel={() => {
              doubleText.cancel();
              compare.cancel();
            }}
            extraActions={<CopySdkCode />}
          />
        </section>
        <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {doubleText.isPending && 'Running the double-text…'}
          {compare.isPending && 'Comparing the four strategies…'}
          {view === 'single' &&
            doubleText.isSuccess &&
            `Done. Run 1's fate: ${doubleText.data.fate.words}.`}
          {view === 'compare' && compare.isSuccess && 'Done: the four outcomes are shown.'}
        </p>
        {view === 'single' && <DoubleTextView mutation={doubleText} />}
        {view === 'compare' && <CompareView mutation={compare} />}
      </div>
    </FormProvider>
  );
}
