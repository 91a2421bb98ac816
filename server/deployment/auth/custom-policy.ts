import type { Auth } from '@langchain/langgraph-sdk/auth';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  ANONYMOUS_USER,
  type AuthDecision,
  type AuthFilters,
  type AuthPolicy,
  AuthRefusal,
  type AuthUser,
  OPEN_DECISION,
} from './auth-types';

type HandlerCache = Auth['~handlerCache'];

/** Whether a module's export is an `Auth` of `@langchain/langgraph-sdk/auth`. */
export function isAuth(value: unknown): value is Auth {
  return typeof value === 'object' && value !== null && '~handlerCache' in value;
}

/** The SDK's `HTTPException` (any copy of the package): a status and headers. */
function isHttpException(
  error: unknown,
): error is { status: number; headers: HeadersInit; message: string } {
  return typeof error === 'object' && error !== null && 'status' in error && 'headers' in error;
}

/** What a handler threw, as the refusal it asks for; anything else stays an error (500). */
function refusalOf(error: unknown): unknown {
  if (!isHttpException(error)) return error;
  const status = error.status as ContentfulStatusCode;
  const detail = error.message || (status === 401 ? 'Unauthorized' : 'Forbidden');
  return new AuthRefusal(status, detail, Object.fromEntries(new Headers(error.headers)));
}

/** `authenticate`'s answer as a user, normalised as the official server does. */
function userOf(answer: unknown): AuthUser {
  if (typeof answer === 'string') {
    return { identity: answer, display_name: answer, is_authenticated: true, permissions: [] };
  }
  if (typeof answer === 'object' && answer !== null && 'identity' in answer) {
    const fields = answer as Record<string, unknown>;
    if (typeof fields.identity === 'string') {
      const permissions = Array.isArray(fields.permissions) ? fields.permissions.map(String) : [];
      return {
        ...fields,
        identity: fields.identity,
        permissions,
        is_authenticated:
          typeof fields.is_authenticated === 'boolean' ? fields.is_authenticated : true,
        display_name:
          typeof fields.display_name === 'string' ? fields.display_name : fields.identity,
      };
    }
  }
  throw new Error(
    'Invalid auth response received. Make sure to either return a `string` or an object with `identity` property.',
  );
}

/** The handler for `resource:action`: the most specific one registered wins. */
function handlerFor(handlers: HandlerCache, resource: string, action: string) {
  const keys = [`${resource}:${action}`, resource, `*:${action}`, '*'];
  const key = keys.find((candidate) => handlers.callbacks?.[candidate]);
  return key ? handlers.callbacks?.[key] : undefined;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>) } : {};

/** What a handler wrote into `value.metadata`: stamped on what the request creates or updates. */
function stampOf(value: Record<string, unknown>): Record<string, unknown> {
  const { metadata } = value;
  return typeof metadata === 'object' && metadata !== null ? { ...metadata } : {};
}

/** LangGraph Studio sends `x-auth-scheme: langsmith` with a LangSmith key instead of the app's auth. */
const STUDIO_SCHEME_HEADER = 'x-auth-scheme';
const STUDIO = 'StudioUser';
/** The identity the SDK's `isStudioUser` recognises. */
const STUDIO_USER_ID = 'langgraph-studio-user';

/**
 * Custom auth, as the official server runs it: the `Auth` object's `authenticate` gives the user
 * (or throws the SDK's `HTTPException`), and the handler registered for `resource:action` (else
 * `resource`, `*:action`, `*`) allows (nothing, `true`), refuses (`false`: 403, or its own
 * exception), or answers metadata filters. What a handler writes into `value.metadata` is
 * stamped on the records the request creates and updates. With `studio` (unless
 * `disable_studio_auth`), LangGraph Studio's requests are checked as LangSmith keys instead, and
 * its user passes every handler, as on the official server.
 */
export function createCustomPolicy(auth: Auth, studio?: AuthPolicy): AuthPolicy {
  const handlers = auth['~handlerCache'];
  return {
    mode: 'custom',
    async authenticate(request) {
      if (studio && request.headers.get(STUDIO_SCHEME_HEADER) === 'langsmith') {
        const checked = await studio.authenticate(request);
        return { ...checked, identity: STUDIO_USER_ID, display_name: STUDIO_USER_ID, kind: STUDIO };
      }
      if (!handlers.authenticate) return ANONYMOUS_USER;
      try {
        return userOf(await handlers.authenticate(request));
      } catch (error) {
        throw refusalOf(error);
      }
    },
    async authorize(user, resource, action, value): Promise<AuthDecision> {
      const handler = handlerFor(handlers, resource, action);
      if (!handler || !user.is_authenticated || user.kind === STUDIO) return OPEN_DECISION;
      const mutable: Record<string, unknown> = {
        ...value,
        metadata: { ...asRecord(value.metadata) },
      };
      let result: unknown;
      try {
        result = await handler({
          event: `${resource}:${action}`,
          resource,
          action,
          value: mutable,
          permissions: [...user.permissions],
          user: { ...user, permissions: [...user.permissions] },
        });
      } catch (error) {
        throw refusalOf(error);
      }
      if (result === false) throw new AuthRefusal(403, 'Forbidden');
      const stamp = stampOf(mutable);
      const { metadata: _stamped, ...authorized } = mutable;
      if (result === null || result === undefined || result === true) {
        return { filters: undefined, stamp, value: authorized };
      }
      if (typeof result !== 'object') {
        throw new Error(
          `Auth handler returned invalid result. Expected filter object, null, undefined or boolean. Got "${typeof result}" instead.`,
        );
      }
      return { filters: result as AuthFilters, stamp, value: authorized };
    },
  };
}
