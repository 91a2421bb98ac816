import { Auth, HTTPException, isStudioUser } from '@langchain/langgraph-sdk/auth';
import { describe, expect, it } from 'vitest';
import { AuthRefusal, type AuthPolicy, type AuthUser } from './auth-types';
import { createCustomPolicy } from './custom-policy';

const user: AuthUser = {
  identity: 'u1',
  display_name: 'u1',
  is_authenticated: true,
  permissions: ['read'],
};

/** Which handler answered: each returns a filter naming itself. */
const auth = new Auth()
  .authenticate((request) => {
    const name = request.headers.get('x-user');
    if (!name)
      throw new HTTPException(401, { message: 'who?', headers: { 'WWW-Authenticate': 'X' } });
    return name === 'plain' ? name : { identity: name, permissions: ['read'], team: 'red' };
  })
  .on('threads:create', () => ({ by: 'threads:create' }))
  .on('threads', () => ({ by: 'threads' }))
  .on('*:read', () => ({ by: '*:read' }))
  .on('*', () => ({ by: '*' }))
  .on('crons:delete', () => false)
  .on('crons:update', () => true);

const studio: AuthPolicy = {
  mode: 'langsmith',
  authenticate: () => Promise.resolve({ ...user, identity: 'api-key:abc', workspace_id: 'w' }),
  authorize: () => Promise.reject(new Error('not used')),
};

const request = (headers: Record<string, string>) =>
  new Request('http://deployment/threads', { headers });

describe('custom auth handlers', () => {
  const policy = createCustomPolicy(auth);

  it.each([
    ['threads', 'create', 'threads:create'],
    ['threads', 'read', 'threads'],
    ['assistants', 'read', '*:read'],
    ['store', 'put', '*'],
  ] as const)('%s:%s is decided by the %s handler', async (resource, action, by) => {
    expect((await policy.authorize(user, resource, action, {})).filters).toEqual({ by });
  });

  it('refuses with 403 when a handler returns false, allows on true', async () => {
    await expect(policy.authorize(user, 'crons', 'delete', {})).rejects.toMatchObject({
      status: 403,
    });
    expect((await policy.authorize(user, 'crons', 'update', {})).filters).toBeUndefined();
  });

  it('normalises what authenticate returns, and turns its HTTPException into a refusal', async () => {
    expect(await policy.authenticate(request({ 'x-user': 'plain' }))).toEqual({
      identity: 'plain',
      display_name: 'plain',
      is_authenticated: true,
      permissions: [],
    });
    expect(await policy.authenticate(request({ 'x-user': 'ann' }))).toMatchObject({
      identity: 'ann',
      display_name: 'ann',
      is_authenticated: true,
      permissions: ['read'],
      team: 'red',
    });
    const refused = policy.authenticate(request({}));
    await expect(refused).rejects.toBeInstanceOf(AuthRefusal);
    await expect(refused).rejects.toMatchObject({
      status: 401,
      detail: 'who?',
      headers: { 'www-authenticate': 'X' },
    });
  });
});

describe('LangGraph Studio', () => {
  const studioRequest = request({ 'x-auth-scheme': 'langsmith', 'x-api-key': 'k' });

  it('is checked as a LangSmith key and passes every handler', async () => {
    const policy = createCustomPolicy(auth, studio);
    const studioUser = await policy.authenticate(studioRequest);
    expect(isStudioUser({ ...studioUser, permissions: [...studioUser.permissions] })).toBe(true);
    expect(await policy.authorize(studioUser, 'threads', 'create', {})).toMatchObject({
      filters: undefined,
    });
    await expect(policy.authorize(studioUser, 'crons', 'delete', {})).resolves.toBeDefined();
  });

  it('goes through the app’s own authenticate with disable_studio_auth', async () => {
    const policy = createCustomPolicy(auth);
    await expect(policy.authenticate(studioRequest)).rejects.toMatchObject({ status: 401 });
  });
});
