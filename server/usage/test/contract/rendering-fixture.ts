import { CLOUD_USAGE_DATA_START, type GroupBy } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import { buildDimensions } from '@server/usage/seed/build-dimensions';
import { testProfile } from '@server/usage/seed/seed-profiles';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';

/**
 * The data every rendering case runs on, loaded through the port so that each backend holds the
 * same: the test profile, dimension values with every control character in their labels, traces
 * of them at day edges, and traces naming ids the dimension tables do not know.
 */
export const HOSTILE = `=ctl\u0000\u0001\b\t\n\u000b\f\r\u000e\u001f"q"\\back, slash \\u001A \\\u001a ’ ✓`;
export const dimensions = buildDimensions(testProfile());
export const workspaceIds = dimensions.workspaces.map((ws) => ws.id);
const hostileProject = '0b7c0d7e-0000-4000-8000-000000000001';
const hostileUser = '0b7c0d7e-0000-4000-8000-000000000002';
const hostileKey = '0b7c0d7e-0000-4000-8000-000000000003';

export async function loadRenderingFixture(backend: UsageStoreWithFixtures): Promise<void> {
  await backend.seeder.seedIfEmpty(testProfile());
  const workspaceId = workspaceIds[1] ?? '';
  await backend.fixtures.putDimension({
    groupBy: 'project',
    id: hostileProject,
    workspaceId,
    label: HOSTILE,
  });
  await backend.fixtures.putDimension({ groupBy: 'user', id: hostileUser, label: `-${HOSTILE}` });
  await backend.fixtures.putDimension({
    groupBy: 'api_key',
    id: hostileKey,
    workspaceId,
    label: `@${HOSTILE}`,
  });
  const times = ['2026-01-26T23:59:59.999Z', '2026-01-27T00:00:00Z', '2026-02-03T12:34:56Z'];
  for (const [i, time] of times.entries()) {
    await backend.fixtures.ingestTrace({
      run_id: `0b7c0d7e-0000-4000-8000-1000000000${String(i).padStart(2, '0')}`,
      workspace_id: workspaceId,
      project_id: hostileProject,
      user_id: hostileUser,
      api_key_id: hostileKey,
      start_time: time,
    });
  }
  // Ids the dimension tables do not know (traces may name any id), before and after known ids
  // in UUID order, and traces without a user or key: they sort with the unlabelled values.
  const strangers: [string | null, string][] = [
    ['00000000-0000-4000-8000-00000000beef', '2026-01-27T08:00:00Z'],
    ['ffffffff-0000-4000-8000-00000000beef', '2026-01-27T09:00:00Z'],
    [null, '2026-01-26T10:00:00Z'],
  ];
  for (const [i, [id, time]] of strangers.entries()) {
    await backend.fixtures.ingestTrace({
      run_id: `0b7c0d7e-0000-4000-8000-2000000000${String(i).padStart(2, '0')}`,
      workspace_id: workspaceId,
      project_id: id ?? hostileProject,
      user_id: id,
      api_key_id: id,
      start_time: time,
    });
  }
}

export function planFor(
  start: string,
  end: string,
  groupBy: GroupBy,
  floor = false,
): UsageQueryPlan {
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  return {
    grid: createBucketGrid(startMs, endMs, strideForRange(startMs, endMs)),
    floorMs: floor ? Date.parse(CLOUD_USAGE_DATA_START) : null,
    workspaceIds,
    groupBy,
  };
}

/** Ranges `[start, end, floor]` covering every stride, partial edges, periods and far ends. */
export const RANGES: [string, string, boolean][] = [
  ['2026-01-05T00:00:00Z', '2026-03-15T00:00:00Z', false], // 7-day stride, whole days
  ['2026-01-03T05:30:00Z', '2026-03-10T13:17:00.250Z', true], // floor, partial edges
  ['2026-02-01T10:00:00Z', '2026-02-01T20:30:00Z', false], // hourly
  ['2026-01-20T00:00:00Z', '2026-02-09T12:00:00Z', false], // daily across a period boundary
  ['2026-01-10T07:00:00Z', '2026-04-30T00:00:00Z', false], // 30-day stride
  ['2025-06-01T00:00:00Z', '2026-12-01T00:00:00Z', false], // 365-day stride
  ['2026-01-26T00:00:00Z', '2026-01-28T00:00:00Z', false], // the hostile traces' days
  // Data only in later buckets: the matrix covers those (bucket 2 on), the answer is unchanged.
  ['2024-01-01T00:00:00Z', '2026-12-01T00:00:00Z', false], // 365-day stride
  ['2025-10-01T00:00:00Z', '2026-02-20T00:00:00Z', true], // 30-day stride, floor
  ['2020-01-01T00:00:00Z', '9999-12-31T00:00:00Z', false], // ~8,000 yearly buckets
];
