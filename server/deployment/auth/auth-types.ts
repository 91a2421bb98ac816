import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { MetadataFilter } from '../store/metadata-filter';

/** Who a deployment request acts for: the official server's `langgraph_auth_user`. */
export interface AuthUser {
  identity: string;
  display_name: string;
  is_authenticated: boolean;
  permissions: readonly string[];
  /** `langsmith` mode: the workspace the key acts in; what it creates belongs to it. */
  workspace_id?: string;
  /** What a custom `authenticate` returned besides, passed to handlers and to the run's config. */
  [field: string]: unknown;
}

/** The caller of a server without authentication (noop mode). */
export const ANONYMOUS_USER: AuthUser = {
  identity: '',
  display_name: '',
  is_authenticated: false,
  permissions: [],
};

/** The metadata conditions every record the caller touches must meet (`{owner: "user-1"}`). */
export type AuthFilters = MetadataFilter;

export type AuthResource = 'threads' | 'assistants' | 'crons' | 'store';

/** Actions named as the official server names them (`threads:create_run`, `store:put`, ...). */
export type AuthAction =
  | 'create'
  | 'read'
  | 'update'
  | 'delete'
  | 'search'
  | 'create_run'
  | 'put'
  | 'get'
  | 'list_namespaces';

/** What an authorization decides: the filters the request's records must meet, and metadata to stamp. */
export interface AuthDecision {
  filters: AuthFilters | undefined;
  /** The value authorized, as the handlers left it (a store handler may rewrite the namespace). */
  value?: Readonly<Record<string, unknown>>;
  /** Metadata written over what the caller sends on create and update (the record's owner). */
  stamp: Readonly<Record<string, unknown>>;
  /**
   * Store items: labels kept in front of every namespace the caller names, which it never sees
   * (its tenant's part of the store).
   */
  namespaceScope?: readonly string[];
}

export const OPEN_DECISION: AuthDecision = { filters: undefined, stamp: {} };

/** Who creates a run, as authorization gave it: metadata to stamp, the user for its config. */
export interface RunOwner {
  stamp?: Readonly<Record<string, unknown>>;
  /** The authenticated caller: graphs read it as `configurable.langgraph_auth_user`. */
  user?: AuthUser;
}

/**
 * A refused request: 401 (who are you), 403 (not allowed), 404 (not yours, so not there), 503
 * (the key could not be checked), or what a custom `authenticate` threw.
 */
export class AuthRefusal extends Error {
  override name = 'AuthRefusal';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }
}

/** One mode of the deployment API's authentication and authorization. */
export interface AuthPolicy {
  readonly mode: 'noop' | 'langsmith' | 'custom';
  /** The request's user; throws AuthRefusal. */
  authenticate(request: Request): Promise<AuthUser>;
  /** Whether `user` may do `action` on `resource` (throws AuthRefusal 403), and on which records. */
  authorize(
    user: AuthUser,
    resource: AuthResource,
    action: AuthAction,
    value: Readonly<Record<string, unknown>>,
  ): Promise<AuthDecision>;
}
