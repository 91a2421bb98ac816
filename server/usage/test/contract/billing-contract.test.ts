import { afterAll, describe, expect, it } from 'vitest';
import {
  UNATTRIBUTED_GROUP,
  type BillingUsage,
  type Invoice,
} from '@contracts/usage/billing-schema';
import { invoiceCsv } from '@contracts/usage/invoice-csv';
import { DEFAULT_PLAN, type Plan } from '@contracts/usage/pricing';
import type { Workspace } from '@contracts/usage/usage-schema';
import { toNewFeedback } from '@server/usage/feedback/feedback-body';
import { billingUsage } from '@server/usage/model/billing-usage';
import { monthSpan } from '@server/usage/model/invoice';
import { getInvoice } from '@server/usage/queries/get-invoice';
import { testProfile } from '@server/usage/seed/seed-profiles';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import {
  freshStore,
  HAVE_SCALE_OUT_SERVERS,
  openStoreWithFixtures,
  SKIP_REASON,
} from './fresh-stores';

/**
 * The billing period on both backends, byte for byte: a scripted October 2026 with traces in
 * base and extended projects, feedback twice on one trace, opted out on one, on a trace of
 * September, on an extended trace and (in November) on another, against a hand-computed table.
 */

const ACME = '0b6f0d3e-0000-4000-8000-000000000001';
const LABS = '0b6f0d3e-0000-4000-8000-000000000002';
const BASE_P = '0b6f0d3e-0000-4000-8000-0000000000a1';
const EXT_P = '0b6f0d3e-0000-4000-8000-0000000000a2';
const BASE_Q = '0b6f0d3e-0000-4000-8000-0000000000b1';
const USER_A = '0b6f0d3e-0000-4000-8000-0000000000c1';
const USER_B = '0b6f0d3e-0000-4000-8000-0000000000c2';
const KEY_A = '0b6f0d3e-0000-4000-8000-0000000000d1';
const KEY_B = '0b6f0d3e-0000-4000-8000-0000000000d2';
const run = (n: number) => `0b6f0d3e-0000-4000-8000-${String(n).padStart(12, '0')}`;
const fb = (n: number) => `0b6f0d3e-0000-4000-9000-${String(n).padStart(12, '0')}`;

const workspaces: Workspace[] = [ACME, LABS].map((id, index) => ({
  id,
  display_name: index === 0 ? 'Acme' : 'Labs',
  is_personal: false,
  is_deleted: false,
  read_only: false,
  role_name: 'Admin',
  permissions: [],
}));

/** A plan with round prices, so the hand-computed table reads easily. */
const PLAN: Plan = {
  ...DEFAULT_PLAN,
  seats: 2,
  seat_price: 39,
  included: { ...DEFAULT_PLAN.included, base_traces: 10 },
  unit_prices: { ...DEFAULT_PLAN.unit_prices, base_traces: 0.25, extended_upgrades: 0.1235 },
};

async function script(store: UsageStoreWithFixtures): Promise<void> {
  const { fixtures } = store;
  await fixtures.putDimension({ groupBy: 'workspace', id: ACME, label: 'Acme' });
  await fixtures.putDimension({ groupBy: 'workspace', id: LABS, label: 'Labs' });
  await fixtures.putDimension({
    groupBy: 'project',
    id: BASE_P,
    label: 'base-p',
    workspaceId: ACME,
  });
  await fixtures.putDimension({ groupBy: 'project', id: EXT_P, label: 'ext-p', workspaceId: ACME });
  await fixtures.putDimension({
    groupBy: 'project',
    id: BASE_Q,
    label: 'base-q',
    workspaceId: LABS,
  });
  // Who sent each project's traces: base-p user A with key A, ext-p user B without a key,
  // base-q key B without a user.
  const senders: Record<string, { user_id: string | null; api_key_id: string | null }> = {
    [BASE_P]: { user_id: USER_A, api_key_id: KEY_A },
    [EXT_P]: { user_id: USER_B, api_key_id: null },
    [BASE_Q]: { user_id: null, api_key_id: KEY_B },
  };
  const trace = (n: number, workspace: string, project: string, at: string, extended = false) =>
    fixtures.ingestTrace({
      run_id: run(n),
      workspace_id: workspace,
      project_id: project,
      ...senders[project],
      start_time: at,
      trace_tier: extended ? 'longlived' : 'shortlived',
    });
  // September: one base trace (S1 = 1).
  await trace(1, ACME, BASE_P, '2026-09-30T23:00:00.000Z');
  // October: six base traces in base-p (10..15), three extended in ext-p (20..22), four base in
  // Labs' base-q (30..33).
  for (let n = 10; n < 16; n += 1) await trace(n, ACME, BASE_P, `2026-10-0${n - 9}T08:00:00.000Z`);
  for (let n = 20; n < 23; n += 1) await trace(n, ACME, EXT_P, '2026-10-10T12:00:00.000Z', true);
  for (let n = 30; n < 34; n += 1) await trace(n, LABS, BASE_Q, '2026-10-20T12:00:00.000Z');

  // Acme's feedback comes from user B with key A, Labs' from key B without a user.
  const author = (workspaceId: string) =>
    workspaceId === ACME
      ? { workspaceId, userId: USER_B, apiKeyId: KEY_A }
      : { workspaceId, userId: null, apiKeyId: KEY_B };
  const feedback = (id: number, runId: number, at: string, workspaceId = ACME, extend?: boolean) =>
    store.feedback.create(
      [
        toNewFeedback(
          { id: fb(id), run_id: run(runId), key: 'score', extend_trace_retention: extend },
          new Date(at),
        ),
      ],
      author(workspaceId),
      new Date(at),
    );
  expect(await feedback(1, 10, '2026-10-05T00:00:00.000Z')).toEqual([run(10)]);
  // Twice more on the same trace (a retry of the same feedback, then another): no upgrade.
  expect(await feedback(1, 10, '2026-10-06T00:00:00.000Z')).toEqual([]);
  expect(await feedback(2, 10, '2026-10-07T00:00:00.000Z')).toEqual([]);
  // Opted out: never an upgrade.
  expect(await feedback(3, 11, '2026-10-08T00:00:00.000Z', ACME, false)).toEqual([]);
  // September's trace, upgraded in October: billed in October.
  expect(await feedback(4, 1, '2026-10-02T00:00:00.000Z')).toEqual([run(1)]);
  // An extended trace is extended already.
  expect(await feedback(5, 20, '2026-10-11T00:00:00.000Z')).toEqual([]);
  // Labs' trace, by Labs; and a trace of Labs named from Acme upgrades nothing.
  expect(await feedback(6, 30, '2026-10-21T00:00:00.000Z', LABS)).toEqual([run(30)]);
  expect(await feedback(7, 31, '2026-10-21T00:00:00.000Z', ACME)).toEqual([]);
  // November: counted in November.
  expect(await feedback(8, 12, '2026-11-01T00:00:00.000Z')).toEqual([run(12)]);
}

const MONTHS = ['2026-09', '2026-10', '2026-11'] as const;
const NOW = new Date('2026-11-15T00:00:00.000Z');
const ids = new Set([ACME, LABS]);

/** Per month: base, extended and upgrade counts (hand-counted from the script above). */
/**
 * October by who drove it (hand-counted): traces by their sender; upgrades of extended traces
 * by the trace's sender, feedback upgrades (traces 1 and 10 by Acme, 30 by Labs) by the
 * feedback's. Deployment metrics have no groups (none in the script).
 */
const EXPECTED_OCTOBER_GROUPS = {
  project: {
    base_traces: { [BASE_P]: 6, [EXT_P]: 3, [BASE_Q]: 4 },
    extended_traces: { [EXT_P]: 3 },
    extended_upgrades: { [BASE_P]: 2, [EXT_P]: 3, [BASE_Q]: 1 },
  },
  user: {
    base_traces: { [USER_A]: 6, [USER_B]: 3, none: 4 },
    extended_traces: { [USER_B]: 3 },
    extended_upgrades: { [USER_B]: 5, none: 1 },
  },
  api_key: {
    base_traces: { [KEY_A]: 6, [KEY_B]: 4, none: 3 },
    extended_traces: { none: 3 },
    extended_upgrades: { [KEY_A]: 2, [KEY_B]: 1, none: 3 },
  },
};

const EXPECTED_COUNTS = {
  '2026-09': { base_traces: 1, extended_traces: 0, extended_upgrades: 0 },
  '2026-10': { base_traces: 13, extended_traces: 3, extended_upgrades: 6 },
  '2026-11': { base_traces: 0, extended_traces: 0, extended_upgrades: 1 },
};

/**
 * October's invoice by hand: 2 seats × $39 = $78.00; 13 base traces, 10 included, 3 × $0.25 =
 * $0.75; 6 upgrades × $0.1235 = $0.741 → $0.74. Total $79.49. Split by quantity, largest
 * remainder: by workspace, base 9 (Acme) : 4 (Labs) → cents 52 : 23, upgrades 5 : 1 → 62 : 12;
 * by project, base 6 : 3 : 4 → cents 35 : 17 : 23, upgrades 2 : 3 : 1 → 25 : 37 : 12.
 */
const EXPECTED_OCTOBER = {
  lines: [
    ['seats', 2, 0, 2, 39, 78],
    ['base_traces', 13, 10, 3, 0.25, 0.75],
    ['extended_traces', 3, 0, 3, 0, 0],
    ['extended_upgrades', 6, 0, 6, 0.1235, 0.74],
    ['deployment_runs', 0, 0, 0, 0.005, 0],
    ['deployment_nodes', 0, 0, 0, 0, 0],
    ['deployment_uptime_seconds', 0, 0, 0, 0.00006, 0],
  ],
  total: 79.49,
  byWorkspace: [
    ['Acme', 1.14],
    ['Labs', 0.35],
  ],
  byProject: [
    ['Acme', 'base-p', 0.6],
    ['Acme', 'ext-p', 0.54],
    ['Labs', 'base-q', 0.35],
  ],
};

const BACKENDS = [
  { kind: 'duckdb' as const, skip: false },
  { kind: 'clickhouse' as const, skip: !HAVE_SCALE_OUT_SERVERS },
];
const answers = new Map<string, string>();

describe.each(BACKENDS)(
  `billing period contract ($kind; scale-out skipped when ${SKIP_REASON})`,
  ({ kind, skip }) => {
    let store: UsageStoreWithFixtures | undefined;
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await store?.close();
      await drop?.();
    });

    it.skipIf(skip)('scripted month: counts per month and an invoice to the cent', async () => {
      const fresh = await freshStore(kind, 'billing_contract');
      drop = fresh.drop;
      store = await openStoreWithFixtures(fresh.choice);
      await script(store);
      await store.ledger.putPlan(PLAN, NOW);

      const counts: Record<string, unknown> = {};
      for (const month of MONTHS) {
        const { start, end } = monthSpan(month);
        const usage = billingUsage(await store.ledger.periodCounts(start, end), ids);
        counts[month] = Object.fromEntries(
          usage
            .filter(
              (entry) => entry.metric.endsWith('traces') || entry.metric === 'extended_upgrades',
            )
            .map((entry) => [entry.metric, entry.value]),
        );
      }
      expect(counts).toEqual(EXPECTED_COUNTS);

      const { start, end } = monthSpan('2026-10');
      const tracesOnly = (usage: BillingUsage) =>
        Object.fromEntries(
          usage
            .filter((entry) => !entry.metric.startsWith('deployment'))
            .map((entry) => [entry.metric, entry.groups]),
        );
      const grouped = {
        project: tracesOnly(
          billingUsage(await store.ledger.periodCounts(start, end), ids, (row) => row.projectId),
        ),
        user: tracesOnly(
          billingUsage(
            await store.ledger.periodCountsBy(start, end, 'user'),
            ids,
            (row) => row.attributedTo ?? UNATTRIBUTED_GROUP,
          ),
        ),
        api_key: tracesOnly(
          billingUsage(
            await store.ledger.periodCountsBy(start, end, 'api_key'),
            ids,
            (row) => row.attributedTo ?? UNATTRIBUTED_GROUP,
          ),
        ),
      };
      expect(grouped).toEqual(EXPECTED_OCTOBER_GROUPS);

      const october: Invoice = await getInvoice(store, '2026-10', workspaces, NOW);
      expect(october.status).toBe('final');
      expect(
        october.lines.map((line) => [
          line.metric,
          line.quantity,
          line.included,
          line.billable,
          line.unit_price,
          line.amount,
        ]),
      ).toEqual(EXPECTED_OCTOBER.lines);
      expect(october.total).toBe(EXPECTED_OCTOBER.total);
      expect(october.by_workspace.map((split) => [split.workspace_name, split.total])).toEqual(
        EXPECTED_OCTOBER.byWorkspace,
      );
      expect(
        october.by_project.map((split) => [split.workspace_name, split.project_name, split.total]),
      ).toEqual(EXPECTED_OCTOBER.byProject);
      const november = await getInvoice(store, '2026-11', workspaces, NOW);
      expect(november.status).toBe('draft');

      answers.set(
        kind,
        JSON.stringify({ counts, grouped, october, csv: invoiceCsv(october), november }),
      );
    });
  },
);

describe('billing period contract: both backends', () => {
  it.skipIf(!HAVE_SCALE_OUT_SERVERS)('answer byte for byte the same', () => {
    expect(answers.get('clickhouse')).toBe(answers.get('duckdb'));
  });
});

describe('retention upgrades across two replicas', () => {
  it.skipIf(!HAVE_SCALE_OUT_SERVERS)(
    'upgrade a trace once when eight feedbacks race on two replicas',
    async () => {
      const fresh = await freshStore('clickhouse', 'upgrade_replicas');
      const replicas = [
        await openStoreWithFixtures(fresh.choice),
        await openStoreWithFixtures(fresh.choice),
      ];
      try {
        const [first] = replicas;
        await first?.fixtures.ingestTrace({
          run_id: run(99),
          workspace_id: ACME,
          project_id: BASE_P,
          start_time: '2026-10-01T00:00:00.000Z',
        });
        const at = new Date('2026-10-02T00:00:00.000Z');
        const upgraded = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            replicas[index % 2]?.feedback.create(
              [toNewFeedback({ id: fb(100 + index), run_id: run(99), key: 'race' }, at)],
              { workspaceId: ACME, userId: null, apiKeyId: null },
              at,
            ),
          ),
        );
        expect(upgraded.flat()).toEqual([run(99)]);
        const { start, end } = monthSpan('2026-10');
        const usage = billingUsage(await replicas[1]!.ledger.periodCounts(start, end), ids);
        expect(usage.find((entry) => entry.metric === 'extended_upgrades')?.value).toBe(1);
      } finally {
        for (const replica of replicas) await replica.close();
        await fresh.drop();
      }
    },
  );
});

describe('the demo seed on both backends', () => {
  it.skipIf(!HAVE_SCALE_OUT_SERVERS)(
    'upgrades the same traces at the same moments, month by month',
    async () => {
      const answers: string[] = [];
      for (const kind of ['duckdb', 'clickhouse'] as const) {
        const fresh = await freshStore(kind, 'billing_seed');
        const store = await openStoreWithFixtures(fresh.choice);
        try {
          await store.seeder.seedIfEmpty(testProfile());
          const months = [];
          for (const month of ['2026-01', '2026-02', '2026-03']) {
            const { start, end } = monthSpan(month);
            const rows = await store.ledger.periodCounts(start, end);
            months.push(billingUsage(rows, new Set(rows.map((row) => row.workspaceId))));
          }
          answers.push(JSON.stringify({ months, plan: await store.ledger.plan() }));
        } finally {
          await store.close();
          await fresh.drop();
        }
      }
      expect(answers[0]).toContain('"extended_upgrades","value":');
      expect(answers[1]).toBe(answers[0]);
    },
    120_000,
  );
});
