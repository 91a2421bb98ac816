import { ANONYMOUS_USER, type AuthPolicy, OPEN_DECISION } from './auth-types';

/** No credential asked, every record visible: local development (`langgraph dev`). */
export const NOOP_POLICY: AuthPolicy = {
  mode: 'noop',
  authenticate: () => Promise.resolve(ANONYMOUS_USER),
  authorize: () => Promise.resolve(OPEN_DECISION),
};
