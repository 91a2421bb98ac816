import { describe, expect, it } from 'vitest';
import type { UsageQueryInput } from './usage-schema';
import { toUsageSearchParams } from './search-params';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('toUsageSearchParams', () => {
  it.each<[string, UsageQueryInput, string]>([
    [
      'repeated workspace_ids, no group_by',
      {
        start_time: '2026-01-05T00:00:00Z',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A, B],
      },
      `start_time=2026-01-05T00%3A00%3A00Z&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&workspace_ids=${B}`,
    ],
    [
      'offset is percent-encoded, group_by kept',
      {
        start_time: '2026-01-05T00:00:00+01:00',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A],
        group_by: 'user',
      },
      `start_time=2026-01-05T00%3A00%3A00%2B01%3A00&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&group_by=user`,
    ],
    [
      'deployments kind is sent, traces kind is not',
      {
        start_time: '2026-01-05T00:00:00Z',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A],
        group_by: 'project',
        kind: 'langsmith_deployments',
      },
      `start_time=2026-01-05T00%3A00%3A00Z&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&group_by=project&kind=langsmith_deployments`,
    ],
    [
      'trace_tier filter, default kind omitted',
      {
        start_time: '2026-01-05T00:00:00Z',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A],
        kind: 'traces',
        trace_tier: 'longlived',
      },
      `start_time=2026-01-05T00%3A00%3A00Z&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&trace_tier=longlived`,
    ],
    [
      "the export's workspace context, when asked for",
      {
        start_time: '2026-01-05T00:00:00Z',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A],
        group_by: 'project',
        include_context: true,
      },
      `start_time=2026-01-05T00%3A00%3A00Z&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&group_by=project&include_context=true`,
    ],
    [
      'no context: nothing sent',
      {
        start_time: '2026-01-05T00:00:00Z',
        end_time: '2026-01-06T00:00:00Z',
        workspace_ids: [A],
        group_by: 'project',
        include_context: false,
      },
      `start_time=2026-01-05T00%3A00%3A00Z&end_time=2026-01-06T00%3A00%3A00Z&workspace_ids=${A}&group_by=project`,
    ],
  ])('%s', (_label, query, expected) => {
    expect(toUsageSearchParams(query).toString()).toBe(expected);
  });
});
