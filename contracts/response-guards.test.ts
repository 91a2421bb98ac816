import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import { consoleConfigSchema } from './console-config';
import { consoleSessionSchema } from './console-session';
import {
  consoleConfigGuard,
  consoleSessionGuard,
  limitStatusListGuard,
  planGuard,
  usageResponseGuard,
  workspacesResponseGuard,
} from './response-guards';
import { planSchema } from './usage/plan-schema';
import { DEFAULT_PLAN } from './usage/pricing';
import { limitStatusListSchema } from './usage/usage-limits';
import { usageResponseSchema, workspacesResponseSchema } from './usage/usage-schema';
import { WireFormatError, type Guard, type GuardOutput } from './wire-guard';

/** True only when A and B are the same type (optional keys and all), not merely assignable. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Agrees<G, S extends z.ZodMiniType> = Same<GuardOutput<G>, z.output<S>>;

// Fails to compile when a schema gains, loses or changes a field its guard does not.
const typesAgree: [
  Agrees<typeof usageResponseGuard, typeof usageResponseSchema>,
  Agrees<typeof workspacesResponseGuard, typeof workspacesResponseSchema>,
  Agrees<typeof planGuard, typeof planSchema>,
  Agrees<typeof limitStatusListGuard, typeof limitStatusListSchema>,
  Agrees<typeof consoleConfigGuard, typeof consoleConfigSchema>,
  Agrees<typeof consoleSessionGuard, typeof consoleSessionSchema>,
] = [true, true, true, true, true, true];

const UUID_1 = 'a0000000-0000-4000-8000-000000000001';

/**
 * Values put in place of every field of every sample: each type JSON has, and the edges of the
 * checks the schemas make (bounds, integers, date-times, UUIDs, string lengths, enum members).
 */
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  -0.5,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1_000_000,
  1_000_000.5,
  1_000_001,
  '',
  'x',
  'a'.repeat(100),
  'a'.repeat(101),
  '2026-01-05T00:00:00Z',
  '2026-01-05T00:00:00.123456+05:30',
  '2026-01-05T00:00:00+0530',
  '2026-01-05T00:00Z',
  '2026-01-05T00:00:00',
  '2026-01-05 00:00:00Z',
  '2026-01-05',
  '2026-02-29T00:00:00Z',
  '2028-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-01-05T24:00:00Z',
  UUID_1,
  UUID_1.toUpperCase(),
  'a0000000-0000-0000-8000-000000000001',
  'a0000000-0000-4000-c000-000000000001',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'longlived',
  'shortlived',
  'monthly_traces',
  'monthly_longlived_traces',
  'own',
  'org_default',
  'viewer',
  'admin',
  'embedded',
  'langsmith',
  'remote',
  'cloud',
  'self-hosted',
  'demo',
  'none',
  'duckdb',
  'clickhouse',
  'apikey',
  'oidc',
  [],
  ['x'],
  [1],
  {},
];

const workspace = {
  id: UUID_1,
  display_name: 'Acme',
  is_personal: false,
  is_deleted: false,
  read_only: false,
  role_name: 'WORKSPACE_ADMIN',
  permissions: ['workspaces:read'],
  created_at: '2026-01-05T00:00:00Z',
};
const limitStatus = {
  workspace_id: UUID_1,
  scope: 'workspace',
  target_id: UUID_1,
  limit_type: 'monthly_traces',
  limit_value: 1000,
  limit_id: UUID_1,
  source: 'own',
  alert_thresholds: [50, 100],
  used: 10,
  month_start: '2026-11-01T00:00:00Z',
  resets_at: '2026-12-01T00:00:00Z',
  reached_at: null,
  refused: 0,
  alerts: [{ threshold: 50, crossed_at: '2026-11-02T10:00:00.000Z' }],
  can_edit: true,
};

interface Case {
  name: string;
  guard: Guard<unknown>;
  schema: z.ZodMiniType;
  samples: unknown[];
}

const CASES: Case[] = [
  {
    name: 'usage response',
    guard: usageResponseGuard,
    schema: usageResponseSchema,
    samples: [
      {
        stride: { days: 1, hours: 0 },
        usage: [
          {
            time_bucket: '2026-11-01T00:00:00Z',
            dimensions: {
              workspace_id: UUID_1,
              workspace_name: 'Acme',
              project_id: 'p1',
              project_name: 'default',
              user_id: 'u1',
              user_email: 'a@acme.test',
              api_key_short_key: 'lsv2…abcd',
              trace_tier: 'longlived',
            },
            traces: 12,
          },
        ],
      },
      { stride: { days: 0, hours: 1 }, usage: [] },
    ],
  },
  {
    name: 'workspaces',
    guard: workspacesResponseGuard,
    schema: workspacesResponseSchema,
    samples: [[workspace], [{ ...workspace, created_at: undefined, role_name: null }]],
  },
  { name: 'plan', guard: planGuard, schema: planSchema, samples: [DEFAULT_PLAN] },
  {
    name: 'limit status',
    guard: limitStatusListGuard,
    schema: limitStatusListSchema,
    samples: [
      [limitStatus],
      [
        {
          ...limitStatus,
          scope: 'workspace',
          limit_type: 'monthly_spend',
          limit_value: 12.5,
          used: 3.25,
          refused: null,
        },
      ],
    ],
  },
  {
    name: 'console config',
    guard: consoleConfigGuard,
    schema: consoleConfigSchema,
    samples: [
      {
        usage: {
          source: 'embedded',
          upstream: null,
          deploymentMode: 'cloud',
          seed: 'none',
          backend: 'clickhouse',
        },
        deployment: { source: 'remote', upstream: 'http://x', tracesToEmbeddedUsage: true },
      },
    ],
  },
  {
    name: 'console session',
    guard: consoleSessionGuard,
    schema: consoleSessionSchema,
    samples: [
      { mode: 'oidc', user: { name: 'a@acme.test', role: 'admin' } },
      { mode: 'none', user: null },
    ],
  },
];

type Path = (string | number)[];

/** Every place in a JSON value: the root, each key of each object, each item of each list. */
function paths(value: unknown, at: Path = []): Path[] {
  const below =
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, child]) =>
          paths(child, [...at, Array.isArray(value) ? Number(key) : key]),
        )
      : [];
  return [at, ...below];
}

/** A copy of `value` with the field at `path` set to `replacement` (or removed for undefined). */
function replaced(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    return value.map((item, index) => (index === head ? replaced(item, rest, replacement) : item));
  }
  const copy = { ...(value as Record<string, unknown>) };
  const key = String(head);
  if (rest.length === 0 && replacement === undefined) delete copy[key];
  else copy[key] = replaced(copy[key], rest, replacement);
  return copy;
}

/** Every object of `value` with one key no schema knows, which both sides must drop. */
function withUnknownKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknownKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, child]) => [key, withUnknownKeys(child)]);
  return { ...Object.fromEntries(entries), extra_field: 'ignored' };
}

type Verdict = { ok: true; data: unknown } | { ok: false };

function guardVerdict(guard: Guard<unknown>, input: unknown): Verdict {
  try {
    return { ok: true, data: guard(input) };
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
    return { ok: false };
  }
}

describe('each first-screen guard agrees with its zod schema', () => {
  it('in type (checked when the file compiles)', () => {
    expect(typesAgree.every(Boolean)).toBe(true);
  });

  it.each(CASES)('$name: same verdict and output on every one-field change', (entry) => {
    const inputs = entry.samples.flatMap((sample) => [
      sample,
      withUnknownKeys(sample),
      ...paths(sample).flatMap((path) =>
        REPLACEMENTS.map((replacement) => replaced(sample, path, replacement)),
      ),
    ]);
    const disagreements = inputs.flatMap((input) => {
      const zod = entry.schema.safeParse(input);
      const guard = guardVerdict(entry.guard, input);
      if (guard.ok !== zod.success) return [{ input, guard: guard.ok, zod: zod.success }];
      if (guard.ok && zod.success && JSON.stringify(guard.data) !== JSON.stringify(zod.data)) {
        return [{ input, guard: guard.data, zod: zod.data }];
      }
      return [];
    });
    // Both accept some inputs and refuse others, or the comparison proves nothing.
    const accepted = inputs.filter((input) => entry.schema.safeParse(input).success).length;
    expect(accepted).toBeGreaterThan(entry.samples.length);
    expect(accepted).toBeLessThan(inputs.length);
    expect(disagreements).toEqual([]);
  });
});

describe('a refused answer says where and what', () => {
  it.each([
    [
      'a count as text',
      usageResponseGuard,
      {
        stride: { days: 1, hours: 0 },
        usage: [{ time_bucket: '2026-11-01T00:00:00Z', dimensions: {}, traces: '12' }],
      },
      'at usage[0].traces: expected a non-negative integer, got "12".',
    ],
    ['no body', consoleSessionGuard, null, 'at its root: expected an object, got null.'],
    [
      'an unknown role',
      consoleSessionGuard,
      { mode: 'oidc', user: { name: 'a', role: 'owner' } },
      'at user.role: expected one of "viewer", "admin", got "owner".',
    ],
    ['a list for a plan', planGuard, [], 'at its root: expected an object, got a list.'],
  ])('%s', (_name, guard: Guard<unknown>, input, message) => {
    expect(() => guard(input)).toThrow(`The server's answer does not match the API ${message}`);
  });
});
