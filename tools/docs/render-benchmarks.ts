import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';

/** One measurement: its latest figure, how to repeat it, and where and when it was taken. */
export const benchmarkSchema = z
  .object({
    what: z.string().min(1),
    command: z.string().min(1),
    result: z.string().min(1),
    target: z.string().min(1),
    machine: z.string().min(1),
    date: z.string().min(1),
  })
  .strict();

export type Benchmark = z.infer<typeof benchmarkSchema>;

export const benchmarksSchema = z.array(benchmarkSchema).min(1);

export const TABLE_START = '<!-- benchmarks:start -->';
export const TABLE_END = '<!-- benchmarks:end -->';

const COLUMNS = ['What', 'Command', 'Result', 'Target', 'Machine', 'Date'] as const;

export const BENCHMARKS_JSON = fileURLToPath(
  new URL('../../docs/benchmarks.json', import.meta.url),
);
export const BENCHMARKS_MD = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

/** A pipe would end the cell and a newline the row, so both are written so the table survives. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The command is code; a code span cannot hold its own backtick, so such commands stay prose. */
function commandCell(command: string): string {
  return command.includes('`') ? cell(command) : `\`${cell(command)}\``;
}

export function renderTable(entries: readonly Benchmark[]): string {
  const header = `| ${COLUMNS.join(' | ')} |`;
  const rule = `| ${COLUMNS.map(() => '---').join(' | ')} |`;
  const rows = entries.map(
    (entry) =>
      `| ${[
        cell(entry.what),
        commandCell(entry.command),
        cell(entry.result),
        cell(entry.target),
        cell(entry.machine),
        cell(entry.date),
      ].join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}

/**
 * The document with the table between its markers replaced, formatted as Prettier would leave it
 * (the lint step checks every Markdown file with Prettier, so the generated file must pass it).
 */
export async function renderBenchmarksDoc(
  document: string,
  entries: readonly Benchmark[],
): Promise<string> {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`docs/benchmarks.md must hold ${TABLE_START} and then ${TABLE_END}`);
  }
  const replaced = `${document.slice(0, start + TABLE_START.length)}\n\n${renderTable(entries)}\n\n${document.slice(end)}`;
  const options = (await resolveConfig(BENCHMARKS_MD)) ?? {};
  return format(replaced, { ...options, filepath: BENCHMARKS_MD });
}

export async function readBenchmarks(): Promise<Benchmark[]> {
  return benchmarksSchema.parse(JSON.parse(await readFile(BENCHMARKS_JSON, 'utf8')));
}

/** Writes docs/benchmarks.md from docs/benchmarks.json; `--check` only says whether it is current. */
async function main(): Promise<void> {
  const current = await readFile(BENCHMARKS_MD, 'utf8');
  const rendered = await renderBenchmarksDoc(current, await readBenchmarks());
  if (process.argv.includes('--check')) {
    if (rendered !== current) {
      console.error(
        'docs/benchmarks.md is out of date: run node --import tsx tools/docs/render-benchmarks.ts',
      );
      process.exitCode = 1;
    }
    return;
  }
  if (rendered !== current) await writeFile(BENCHMARKS_MD, rendered);
  console.log(
    rendered === current ? 'docs/benchmarks.md is up to date.' : 'Wrote docs/benchmarks.md.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
