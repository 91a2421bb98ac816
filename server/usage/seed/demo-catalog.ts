/**
 * Workspace names of the demo dataset: what an evaluator sees first, so they read as an
 * organisation's workspaces would. The CSV-hostile names (newline, quote, leading `=`) live in
 * the tests that check escaping, which seed them explicitly.
 */
export const DEMO_WORKSPACES = [
  'Acme, Inc. Production',
  'Research Labs',
  'Customer Support',
  'Finance Ops',
  'Zoë’s sandbox',
] as const;

/** Eight per workspace; `default` exists in every workspace (names are not unique). */
export const DEMO_PROJECT_NAMES = [
  'default',
  'chat-assistant',
  'rag-pipeline',
  'summariser, v2',
  'eval "nightly"',
  '=HYPERLINK("http://x","click")',
  '-negative-tests',
  '@mentions bot',
] as const;

const FIRST = [
  'ada',
  'grace',
  'alan',
  'edsger',
  'barbara',
  'ken',
  'linus',
  'margaret',
  'donald',
  'frances',
];
const LAST = ['lovelace', 'hopper', 'turing', 'dijkstra', 'liskov', 'thompson'];

/** Users without an e-mail (service accounts): every 15th user. */
export function demoUserEmail(index: number): string | null {
  if (index % 15 === 7) return null;
  if (index === 3) return '=cmd@example.com';
  if (index === 4) return '"quoted, name"@example.com';
  return `${FIRST[index % FIRST.length]}.${LAST[Math.floor(index / FIRST.length) % LAST.length]}@example.com`;
}
