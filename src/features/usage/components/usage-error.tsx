import { Callout } from '@/components/ui/callout';
import { HttpError } from '@/lib/http-error';
import { NetworkError } from '../api/usage-api-client';

const SELF_HOSTED_FLAGS = [
  'DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING',
  'GRANULAR_USAGE_TABLE_ENABLED',
];

/** What went wrong, in plain words, and what to do about it. */
export function describeUsageError(error: Error): { title: string; body: string } {
  if (error instanceof NetworkError)
    return { title: 'Cannot reach the usage API', body: error.message };
  if (!(error instanceof HttpError)) {
    return { title: 'The usage data could not be read', body: error.message };
  }
  switch (error.status) {
    case 401:
      return {
        title: 'The API key was not accepted (401)',
        body: `${error.message} Check the key under Connection.`,
      };
    case 403:
      return {
        title: 'This API key may not see this usage (403)',
        body: `${error.message} The key needs organization:read and read access to the selected workspaces.`,
      };
    case 422:
      return { title: 'The request was not valid (422)', body: error.message };
    default:
      return { title: `The usage API answered ${error.status}`, body: error.message };
  }
}

export function UsageError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { title, body } = describeUsageError(error);
  const mentionsFlags = SELF_HOSTED_FLAGS.every((flag) => body.includes(flag));
  return (
    <Callout title={title}>
      <p>{body}</p>
      {mentionsFlags ? (
        <pre className="code-block">
          {SELF_HOSTED_FLAGS.map((flag) => `${flag}=true`).join('\n')}
        </pre>
      ) : null}
      <button type="button" className="button button-secondary" onClick={onRetry}>
        Try again
      </button>
    </Callout>
  );
}
