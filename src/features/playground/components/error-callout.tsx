import { Callout } from '@/components/ui/callout';
import type { Connection } from '@/features/playground/model/connection';
import { describeError, type ErrorDescription } from '@/features/playground/model/describe-error';
import { FlowCancelledError } from '@/features/playground/model/flow-error';

/** A failure in plain words, with what to do about it. */
export function ErrorCallout({
  description,
  tone = 'danger',
}: {
  description: ErrorDescription;
  tone?: 'danger' | 'neutral';
}) {
  return (
    <Callout tone={tone} title={description.title} hint={description.hint}>
      <p>{description.message}</p>
    </Callout>
  );
}

/** How a flow ended in error: cancelling is neutral news, anything else is a failure. */
export function FlowErrorCallout({
  error,
  connection,
  assistantId,
}: {
  error: Error;
  connection: Connection;
  assistantId: string;
}) {
  return (
    <ErrorCallout
      tone={error instanceof FlowCancelledError ? 'neutral' : 'danger'}
      description={describeError(error, {
        connection,
        assistantId,
        origin: window.location.origin,
      })}
    />
  );
}
