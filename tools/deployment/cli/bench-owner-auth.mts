import { Auth, HTTPException } from '@langchain/langgraph-sdk/auth';

/**
 * The bench's custom auth: the bearer token is the user's identity (a bench has no secrets), and
 * threads belong to who created them, as in the official suite's `auth.mts`.
 */
export const auth = new Auth()
  .authenticate((request) => {
    const identity = request.headers.get('authorization')?.replace(/^Bearer /, '');
    if (!identity) throw new HTTPException(401, { message: 'Send Authorization: Bearer <user>' });
    return { identity, permissions: [] };
  })
  .on('threads', ({ action, value, user }) => {
    if (action === 'create' || action === 'update' || action === 'create_run') {
      value.metadata ??= {};
      value.metadata['owner'] = user.identity;
    }
    return { owner: user.identity };
  });
