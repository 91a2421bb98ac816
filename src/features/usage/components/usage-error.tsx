import { Callout } from '@/components/ui/callout';
import { HttpError } from '@/lib/http-error';
import { useConsoleConfig } from '@/lib/console-config';
import { NetworkError } from '../api/usage-api-client';
import { useUsageConnection } from '../api/usage-connection';

const SELF_HOSTED_FLAGS = [
  'DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING',
  'GRANULAR_USAGE_TABLE_ENABLED',
];

/** The command that creates the first key of an embedded database started with USAGE_SEED=none. */
export const CREATE_KEY_COMMAND = 'npm run -s usage:create-key';

/**
 * What went wrong, in plain words, and what to do about it. `firstRun`: the server's own key was
 * refused by an embedded database started empty (USAGE_SEED=none), which holds no key until an
 * operator creates one.
 */
export function describeUsageError(
  error: Error,
  { firstRun = false }: { firstRun?: boolean } = {},
): { title: string; body: string } {
  if (error instanceof NetworkError)
    return { title: 'Cannot reach the usage API', body: error.message };
  if (!(error instanceof HttpError)) {
    return { title: 'The usage data could not be read', body: error.message };
  }
  switch (error.status) {
    case 401:
      if (firstRun) {
        return {
          title: 'This console has no usage API key yet',
          body:
            'The server started with an empty usage database (USAGE_SEED=none), which holds no ' +
            `key. Stop the server, run \`${CREATE_KEY_COMMAND}\`, set the key it prints as ` +
            'USAGE_CONSOLE_API_KEY in .env and start the server again; it also says how to add data.',
        };
      }
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

interface UsageErrorProps {
  error: Error;
  onRetry: () => void;
  /** Opens the Connection panel: a key that was refused needs changing, not retrying. */
  onChangeKey: () => void;
}

export function UsageError({ error, onRetry, onChangeKey }: UsageErrorProps) {
  const config = useConsoleConfig();
  const { connection } = useUsageConnection();
  const firstRun =
    config.data?.usage.source === 'embedded' &&
    config.data.usage.seed === 'none' &&
    !connection.baseUrl &&
    !connection.apiKey;
  const { title, body } = describeUsageError(error, { firstRun });
  const keyProblem = error instanceof HttpError && (error.status === 401 || error.status === 403);
  const mentionsFlags = SELF_HOSTED_FLAGS.every((flag) => body.includes(flag));
  return (
    <Callout title={title}>
      <p>{body}</p>
      {firstRun ? <pre className="code-block">{CREATE_KEY_COMMAND}</pre> : null}
      {mentionsFlags ? (
        <pre className="code-block">
          {SELF_HOSTED_FLAGS.map((flag) => `${flag}=true`).join('\n')}
        </pre>
      ) : null}
      {keyProblem ? (
        <button type="button" className="button button-secondary" onClick={onChangeKey}>
          Change API key
        </button>
      ) : (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </Callout>
  );
}
