import { describe, expect, it } from 'vitest';
import { usageCsvColumns, type UsageCsvColumn } from '@contracts/usage/usage-schema';
import { testProfile } from '../seed/seed-profiles';
import { parseCsv } from './csv-parse';
import { ADMIN, useTestServer, usageUrl } from './test-server';

/** Workspace names that need escaping: a comma, a quote, a newline, a formula, non-ASCII. */
const ESCAPING_WORKSPACE_NAMES = [
  'Acme, Inc. Production',
  'Research "Labs"',
  'Support\nBots',
  '=Finance Ops',
  'Zoë’s sandbox',
];

const server = useTestServer({}, { ...testProfile(), workspaceNames: ESCAPING_WORKSPACE_NAMES });

async function exportCsv(start: string, end: string, groupBy?: string, extra = '') {
  const url = usageUrl(server.baseUrl, { start, end, groupBy, export: true }) + extra;
  const response = await fetch(url, { headers: ADMIN });
  expect(response.status).toBe(200);
  const text = await response.text();
  const [header, ...rows] = parseCsv(text);
  return { response, text, header, rows };
}

/** Spec table 2.3, as a script reading the export expects it. */
const SPEC_COLUMNS = [
  'Time Bucket Start',
  'Time Bucket End',
  'Workspace ID',
  'Workspace Name',
  'Project ID',
  'Project Name',
  'User ID',
  'User Email',
  'API Key Short Key',
  'Traces',
];
const TIER_COLUMNS = [...SPEC_COLUMNS.slice(0, -1), 'Trace Tier', 'Traces'];

const column = (name: UsageCsvColumn) => SPEC_COLUMNS.indexOf(name);

describe('CSV export', () => {
  it('sends text/csv as an attachment named after the range and grouping', async () => {
    const { response } = await exportCsv('2026-02-01T00:00:00Z', '2026-02-08T00:00:00Z', 'project');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="granular-usage_2026-02-01_2026-02-07_project.csv"',
    );
  });

  it.each([
    ['workspace', ['Workspace ID', 'Workspace Name']],
    ['project', ['Project ID', 'Project Name']],
    ['user', ['User ID', 'User Email']],
    ['api_key', ['API Key Short Key']],
    ['trace_tier', ['Trace Tier']],
  ] as const)(
    "group_by=%s: the spec's ten columns (Trace Tier added by tier), only its own filled",
    async (groupBy, own) => {
      const { header, rows } = await exportCsv(
        '2026-02-01T00:00:00Z',
        '2026-02-08T00:00:00Z',
        groupBy,
      );
      const expected = groupBy === 'trace_tier' ? TIER_COLUMNS : SPEC_COLUMNS;
      expect(header).toEqual(expected);
      expect(rows.length).toBeGreaterThan(0);
      const at = (name: string) => expected.indexOf(name);
      for (const row of rows) {
        expect(row).toHaveLength(expected.length);
        for (const name of expected.slice(2, -1)) {
          if (!(own as readonly string[]).includes(name)) expect(row[at(name)]).toBe('');
        }
        expect(row[at('Traces')]).toMatch(/^[1-9]\d*$/);
      }
      expect(rows.some((row) => own.every((name) => row[at(name)] !== ''))).toBe(true);
    },
  );

  it.each([
    ['', false],
    ['&include_context=false', false],
    ['&include_context=true', true],
  ] as const)("group_by=project%s: the project's workspace filled: %s", async (extra, filled) => {
    const start = '2026-02-01T00:00:00Z';
    const { header, rows } = await exportCsv(start, '2026-02-08T00:00:00Z', 'project', extra);
    expect(header).toEqual(SPEC_COLUMNS);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const workspace = [row[column('Workspace ID')], row[column('Workspace Name')]];
      if (filled)
        expect(workspace).toEqual([
          expect.stringMatching(/^[0-9a-f-]{36}$/),
          expect.stringMatching(/./),
        ]);
      else expect(workspace).toEqual(['', '']);
      expect(row[column('Project ID')]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('refuses an include_context that is not a boolean, as FastAPI does', async () => {
    const url = `${usageUrl(server.baseUrl, {
      start: '2026-02-01T00:00:00Z',
      end: '2026-02-08T00:00:00Z',
      export: true,
    })}&include_context=workspace`;
    const response = await fetch(url, { headers: ADMIN });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        {
          loc: ['query', 'include_context'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          type: 'bool_parsing',
          input: 'workspace',
        },
      ],
    });
  });

  it('round-trips hostile names and neutralises formula cells', async () => {
    const { rows: byWorkspace } = await exportCsv('2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z');
    const names = new Set(byWorkspace.map((row) => row[column('Workspace Name')]));
    expect(names).toEqual(
      new Set([
        'Acme, Inc. Production',
        'Research "Labs"',
        'Support\nBots',
        "'=Finance Ops",
        'Zoë’s sandbox',
      ]),
    );
    const { rows: byProject } = await exportCsv(
      '2026-02-01T00:00:00Z',
      '2026-02-02T00:00:00Z',
      'project',
    );
    const projects = new Set(byProject.map((row) => row[column('Project Name')]));
    expect(projects).toContain('\'=HYPERLINK("http://x","click")');
    expect(projects).toContain("'-negative-tests");
    expect(projects).toContain("'@mentions bot");
    expect(projects).toContain('summariser, v2');
    const { rows: byKey } = await exportCsv(
      '2026-02-01T00:00:00Z',
      '2026-02-02T00:00:00Z',
      'api_key',
    );
    expect(byKey.map((row) => row[column('API Key Short Key')])).toContain("'-legacy-key");
  });

  it('quotes per RFC 4180 in the raw bytes', async () => {
    const { text } = await exportCsv('2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z');
    expect(text).toContain('"Acme, Inc. Production"');
    expect(text).toContain('"Research ""Labs"""');
    expect(text).toContain('"Support\nBots"');
  });

  it('Time Bucket End is the next bucket start, or end_time for the last bucket', async () => {
    const { rows } = await exportCsv('2026-01-07T00:00:00Z', '2026-02-20T12:00:00Z');
    const pairs = new Map(rows.map((row) => [row[0], row[1]]));
    expect([...pairs.entries()]).toEqual([
      ['2026-01-07T00:00:00.000Z', '2026-01-14T00:00:00.000Z'],
      ['2026-01-14T00:00:00.000Z', '2026-01-21T00:00:00.000Z'],
      ['2026-01-21T00:00:00.000Z', '2026-01-28T00:00:00.000Z'],
      ['2026-01-28T00:00:00.000Z', '2026-02-04T00:00:00.000Z'],
      ['2026-02-04T00:00:00.000Z', '2026-02-11T00:00:00.000Z'],
      ['2026-02-11T00:00:00.000Z', '2026-02-18T00:00:00.000Z'],
      ['2026-02-18T00:00:00.000Z', '2026-02-20T12:00:00.000Z'],
    ]);
  });

  it('an empty range exports the header row only', async () => {
    const { rows, header } = await exportCsv('2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z');
    expect(header).toEqual(SPEC_COLUMNS);
    expect(header).toEqual([...usageCsvColumns('workspace')]);
    expect(rows).toEqual([]);
  });
});
