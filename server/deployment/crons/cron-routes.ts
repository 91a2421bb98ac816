import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { requireUuidParams } from '@server/http/uuid-params';
import { authDecisionOf, authUserOf, stampedMetadata } from '../auth/auth-door';
import type { AuthUser } from '../auth/auth-types';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { createRun, noAssistantFor } from '../use-cases/create-run';
import { CRON_SORT_COLUMNS, type CronRecord } from '../store/records';
import { selectFields } from '../use-cases/thread-view';
import { parseJsonBody, parseWith } from '../wire/request';
import { createRunBody } from '../wire/run-request';
import { nextRunDate, parseSchedule } from './cron-schedule';
import { webhookRefusal } from '../webhooks/webhook-policy';

const cronFields = {
  schedule: z.string().min(1),
  end_time: z.iso.datetime({ offset: true }).nullish(),
  enabled: z.boolean().nullish(),
  on_run_completed: z.enum(['delete', 'keep']).nullish(),
};
const createCronBody = createRunBody.extend(cronFields);
const updateCronBody = z.looseObject({
  ...cronFields,
  schedule: cronFields.schedule.optional(),
  input: createRunBody.shape.input,
  metadata: createRunBody.shape.metadata,
  config: createRunBody.shape.config,
  context: z.unknown().optional(),
  webhook: createRunBody.shape.webhook,
  interrupt_before: createRunBody.shape.interrupt_before,
  interrupt_after: createRunBody.shape.interrupt_after,
});
const searchCronsBody = z.looseObject({
  assistant_id: z.string().nullish(),
  thread_id: z.uuid().nullish(),
  enabled: z.boolean().nullish(),
  limit: z.number().int().min(1).max(1000).default(10),
  offset: z.number().int().min(0).default(0),
  sort_by: z.enum(CRON_SORT_COLUMNS).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
  select: z.array(z.string()).nullish(),
});

/** The run-body fields of a cron's payload that are not about the schedule itself. */
const PAYLOAD_KEYS = [
  'input',
  'metadata',
  'config',
  'context',
  'webhook',
  'interrupt_before',
  'interrupt_after',
];

/**
 * Where a cron's payload keeps the user who created it: its runs act for that user
 * (`langgraph_auth_user`), as runs a user starts do. Never sent back on the wire.
 */
const OWNER_PAYLOAD_KEY = 'langgraph_auth_user';

function ownerOf(payload: Record<string, unknown>): AuthUser | undefined {
  const user = payload[OWNER_PAYLOAD_KEY];
  if (typeof user !== 'object' || user === null || !('identity' in user)) return undefined;
  return user as AuthUser;
}

/**
 * Crons as the platform serves them: `POST /threads/{id}/runs/crons` (runs on that thread),
 * `POST /runs/crons` (each firing on a new thread, deleted afterwards unless `on_run_completed`
 * is `keep`), `POST /runs/crons/search`, `POST /runs/crons/count`, `PATCH` and `DELETE
 * /runs/crons/{cron_id}`. Schedules are UTC cron expressions (5 fields, or 6 with seconds).
 */
export function createCronRoutes(deps: DeploymentDeps) {
  const { crons } = deps;
  const threadCrons = new Hono().post('/', (c) => create(c, c.req.param('threadId') ?? null));
  const app = new Hono();
  app.post('/', (c) => create(c, null));
  app.post('/search', async (c) => {
    const body = await parseJsonBody(c, searchCronsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { limit, offset, select } = body.data;
    const found = await crons.search(
      {
        ...body.data,
        assistant_id: await resolvedAssistant(body.data.assistant_id),
        metadata: authDecisionOf(c).filters,
      },
      {
        limit,
        offset,
        sortBy: body.data.sort_by ?? 'created_at',
        sortOrder: body.data.sort_order ?? 'desc',
      },
    );
    return c.json(found.map((cron) => selectFields(serializeCron(cron), select)));
  });
  app.post('/count', async (c) => {
    const body = await parseJsonBody(c, searchCronsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    return c.json(
      await crons.count({
        ...body.data,
        assistant_id: await resolvedAssistant(body.data.assistant_id),
        metadata: authDecisionOf(c).filters,
      }),
    );
  });
  app.use('/:cronId', requireUuidParams('cronId'));
  app.patch('/:cronId', async (c) => {
    const cron = await crons.get(c.req.param('cronId'));
    if (!cron) return jsonError(c, 404, `Cron ${c.req.param('cronId')} not found`);
    const body = await parseJsonBody(c, updateCronBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const refusedWebhook = webhookRefusal(body.data.webhook, deps.webhooks);
    if (refusedWebhook) return jsonError(c, 422, refusedWebhook);
    if (body.data.metadata) body.data.metadata = stampedMetadata(c, body.data.metadata);
    const { schedule = cron.schedule, enabled, on_run_completed } = body.data;
    const endTime = body.data.end_time === undefined ? cron.end_time : body.data.end_time;
    const checked = parseSchedule(schedule);
    if (!checked.ok) return jsonError(c, 422, `schedule: ${checked.reason}`);
    const payload = { ...cron.payload, ...payloadOf(body.data) };
    const updated = await crons.update(cron.cron_id, {
      schedule,
      end_time: endTime ?? null,
      payload,
      metadata: (payload.metadata as Record<string, unknown> | undefined) ?? cron.metadata,
      enabled: enabled ?? cron.enabled,
      on_run_completed:
        cron.thread_id === null ? (on_run_completed ?? cron.on_run_completed) : null,
      next_run_date: nextRunDate(schedule, new Date(), endTime ?? null),
    });
    return updated ? c.json(serializeCron(updated)) : jsonError(c, 404, 'Cron not found');
  });
  app.delete('/:cronId', async (c) =>
    (await crons.delete(c.req.param('cronId')))
      ? c.body(null, 204)
      : jsonError(c, 404, `Cron ${c.req.param('cronId')} not found`),
  );
  return { threadCrons, crons: app };

  async function resolvedAssistant(assistantId: string | null | undefined): Promise<string | null> {
    if (!assistantId) return null;
    return (await deps.assistants.resolve(assistantId))?.assistant_id ?? assistantId;
  }

  async function create(c: Context, threadId: string | null) {
    const body = await parseJsonBody(c, createCronBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const refusedWebhook = webhookRefusal(body.data.webhook, deps.webhooks);
    if (refusedWebhook) return jsonError(c, 422, refusedWebhook);
    // The owner goes into the cron's metadata and into the metadata of every run it starts.
    const { stamp } = authDecisionOf(c);
    if (Object.keys(stamp).length > 0) body.data.metadata = { ...body.data.metadata, ...stamp };
    const { schedule, end_time, enabled, on_run_completed } = body.data;
    const checked = parseSchedule(schedule);
    if (!checked.ok) return jsonError(c, 422, `schedule: ${checked.reason}`);
    const assistant = await deps.assistants.resolve(body.data.assistant_id);
    if (!assistant) {
      return jsonError(c, 404, noAssistantFor(body.data.assistant_id));
    }
    if (threadId !== null && !(await deps.threads.get(threadId))) {
      return jsonError(c, 404, `Thread ${threadId} not found`);
    }
    const user = authUserOf(c);
    const payload = {
      ...payloadOf(body.data),
      ...(body.data.multitask_strategy && { multitask_strategy: body.data.multitask_strategy }),
      ...(user.is_authenticated && { [OWNER_PAYLOAD_KEY]: user }),
    };
    const cron = await crons.create({
      assistant_id: assistant.assistant_id,
      thread_id: threadId,
      schedule,
      payload,
      metadata: body.data.metadata ?? {},
      end_time: end_time ?? null,
      next_run_date: nextRunDate(schedule, new Date(), end_time ?? null),
      enabled: enabled ?? true,
      on_run_completed: threadId === null ? (on_run_completed ?? 'delete') : null,
    });
    return c.json(serializeCron(cron));
  }
}

/** The run fields of a cron body; a relative webhook stays a path of this API (see deliver-webhook). */
function payloadOf(body: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const key of PAYLOAD_KEYS) {
    if (body[key] !== undefined) payload[key] = body[key];
  }
  return payload;
}

/** The wire cron (`Cron` of the SDK). */
export function serializeCron(cron: CronRecord) {
  const { [OWNER_PAYLOAD_KEY]: _owner, ...payload } = cron.payload;
  return {
    cron_id: cron.cron_id,
    assistant_id: cron.assistant_id,
    thread_id: cron.thread_id,
    ...(cron.on_run_completed && { on_run_completed: cron.on_run_completed }),
    end_time: cron.end_time,
    schedule: cron.schedule,
    created_at: cron.created_at,
    updated_at: cron.updated_at,
    payload,
    user_id: cron.user_id ?? ownerOf(cron.payload)?.identity ?? null,
    next_run_date: cron.next_run_date,
    metadata: cron.metadata,
    enabled: cron.enabled,
  };
}

/**
 * Fires a cron: a run with its payload, on its thread or (stateless) on a new thread. `gone`
 * when its thread no longer exists.
 */
export async function fireCron(deps: DeploymentDeps, cron: CronRecord): Promise<'fired' | 'gone'> {
  if (cron.thread_id !== null && !(await deps.threads.get(cron.thread_id))) return 'gone';
  const { [OWNER_PAYLOAD_KEY]: _owner, ...payload } = cron.payload;
  const metadata = { ...(payload.metadata as object | undefined), cron_id: cron.cron_id };
  const body = parseWith(createRunBody, {
    ...payload,
    metadata,
    assistant_id: cron.assistant_id,
    ...(cron.thread_id === null && { on_completion: cron.on_run_completed ?? 'delete' }),
  });
  if (!body.ok) throw new Error(`cron ${cron.cron_id}: ${body.detail}`);
  // The cron's metadata holds its owner (authorization stamped it): its runs' threads carry it,
  // and its runs act for the user who created it.
  const created = await createRun(deps, body.data, cron.thread_id, 'http://localhost/', undefined, {
    stamp: cron.metadata,
    user: ownerOf(cron.payload),
  });
  if ('refused' in created) throw new Error(`cron ${cron.cron_id}: ${created.detail}`);
  return 'fired';
}
