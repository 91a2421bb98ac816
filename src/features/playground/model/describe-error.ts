import { EMBEDDED_DEPLOYMENT_PATH, type Connection } from './connection';
import { FlowCancelledError, FlowError, isNetworkFailure, readHttpFailure } from './flow-error';

export interface ErrorDescription {
  title: string;
  message: string;
  /** What to do about it, when there is something to do. */
  hint?: string;
}

interface ErrorContext {
  connection: Connection;
  assistantId: string;
  /** This page's origin, the one a deployment's CORS policy must allow. */
  origin: string;
}

/** Any failure of a flow, in the words someone demoing the panel can act on. */
export function describeError(error: unknown, context: ErrorContext): ErrorDescription {
  if (error instanceof FlowCancelledError) {
    return {
      title: 'Cancelled',
      message: 'The flow was stopped; the runs it had started were cancelled too.',
    };
  }
  const stage = error instanceof FlowError ? error.stage : null;
  const cause = error instanceof FlowError ? error.cause : error;
  const { connection, assistantId, origin } = context;

  if (isNetworkFailure(cause)) {
    if (connection.kind === 'embedded') {
      return {
        title: 'Deployment unreachable',
        message: `The console server did not answer at ${EMBEDDED_DEPLOYMENT_PATH}.`,
        hint: 'Check that `npm start` is still running, then try again.',
      };
    }
    return {
      title: 'Deployment unreachable or CORS refused',
      message: `The browser could not reach ${connection.url}: nothing answers there, or the deployment's CORS policy does not allow this page's origin (${origin}).`,
      hint: `Allow ${origin} in the deployment's CORS settings (langgraph.json: http.cors.allow_origins, and x-api-key in allow_headers when you send a key) — or set LANGGRAPH_DEPLOYMENT_URL and LANGGRAPH_API_KEY on the console server and use the Embedded setting, which goes through the server and needs no CORS.`,
    };
  }

  const failure = readHttpFailure(cause);
  if (failure) {
    const { status, message } = failure;
    if (status === 401 || status === 403) {
      return {
        title: `Not authorized (${status})`,
        message: `The deployment refused the request: ${message}`,
        hint:
          connection.kind === 'embedded'
            ? 'The console server sends its own key: check LANGGRAPH_API_KEY on the server.'
            : 'Check the API key (sent as x-api-key) and that it belongs to this deployment.',
      };
    }
    if (status === 404 && stage === 'run1-create') {
      return {
        title: 'Unknown assistant',
        message: `The deployment has no assistant or graph named "${assistantId}" (${message}).`,
        hint: 'Use an assistant id or graph name of this deployment; the embedded demo graph is "agent".',
      };
    }
    if (status === 404 && stage === 'thread-create') {
      return {
        title: 'No deployment API at this address',
        message: `Creating a thread answered 404 (${message}).`,
        hint: 'Give the base URL of the deployment, the one /threads lives under.',
      };
    }
    if (status >= 500) {
      return { title: `Deployment error (${status})`, message };
    }
    return { title: `Request refused (${status})`, message };
  }

  const message = cause instanceof Error ? cause.message : String(cause);
  return { title: 'Something went wrong', message };
}
