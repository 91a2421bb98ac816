import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLE_NAMES } from '@server/config';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'data',
  'test-results',
  'playwright-report',
]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const files = markdownFiles(ROOT).map((file) => ({
  name: path.relative(ROOT, file),
  file,
  text: readFileSync(file, 'utf8'),
}));
/** A missing page reads as empty, so each check says what it lacks rather than the suite failing to load. */
const read = (relative: string) => {
  const file = path.join(ROOT, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

/** What a reader of the product's docs has no use for: tracker references and work history. */
const DIARY_PATTERNS: readonly [string, RegExp][] = [
  ['issue number', /\bissues?\s+#?\d+/i],
  ['issue reference (#n)', /(?:^|[\s(])#\d+\b/],
  ['work-branch name', /\br\d+-[a-z]+\b/],
  ['branch of work', /\b(?:on|this|that|the) branch\b/i],
  ['work session', /\b(?:this|that|the) session\b/i],
  ['worktree', /\bworktree\b/i],
];

describe('the configuration reference', () => {
  const reference = read('docs/configuration.md');
  // The first cell of a reference row names its variables, each in backticks.
  const rows = reference
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|')[1] ?? '');

  it.each(CONFIG_VARIABLE_NAMES)('defines %s in exactly one row', (name) => {
    const defining = rows.filter((first) => first.includes(`\`${name}\``));
    expect(defining).toHaveLength(1);
  });
});

describe('README.md', () => {
  it('reads in ten minutes: at most 200 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('links every page of docs/', () => {
    const readme = read('README.md');
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    for (const page of pages) expect(readme).toContain(`](docs/${page}`);
  });
});

describe.each(files)('$name', ({ file, text }) => {
  it.each(DIARY_PATTERNS)('holds no %s', (_what, pattern) => {
    const hits = text.split('\n').filter((line) => pattern.test(line));
    expect(hits).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken = relativeLinks(text).filter((link) => !linkResolves(file, link));
    expect(broken).toEqual([]);
  });
});

/** Relative link targets outside code (fenced blocks and code spans are not links). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target));
}

function linkResolves(from: string, link: string): boolean {
  const [target = '', anchor] = link.split('#');
  const file = target === '' ? from : path.resolve(path.dirname(from), decodeURI(target));
  if (!existsSync(file)) return false;
  if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith('.md')) return true;
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor);
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  for (const [, heading = ''] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
