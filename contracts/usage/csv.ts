/** A CSV cell: strings are neutralised and quoted as needed; numbers are written as they are. */
export type CsvCell = string | number | null | undefined;

const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@']);
const LEADING_CONTROL = /^[\t\r\n]/;

/**
 * CWE-1236: a spreadsheet runs a cell as a formula when it starts with `= + - @` (after any
 * leading spaces, which it skips; fullwidth `＝ ＋ － ＠` count too, as it folds them), or with a
 * tab, CR or LF. Prefixing `'` makes it text. Applies to strings only: numeric cells (e.g. `-3`)
 * are never touched, so they stay numbers.
 */
export function neutraliseCsvCell(value: string): string {
  if (LEADING_CONTROL.test(value)) return `'${value}`;
  // NFKC folds fullwidth forms to ASCII; only the first few characters can matter.
  const head = value.trimStart().slice(0, 4).normalize('NFKC').trimStart();
  return FORMULA_TRIGGERS.has(head.charAt(0)) ? `'${value}` : value;
}

/** RFC 4180: quote a field holding a comma, quote, CR or LF, doubling inner quotes. */
export function quoteCsvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV field: empty for null/undefined, numbers as they are, strings neutralised then quoted. */
export function formatCsvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return String(cell);
  return quoteCsvField(neutraliseCsvCell(cell));
}

/** One CSV record with its CRLF terminator. */
export function formatCsvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(formatCsvCell).join(',')}\r\n`;
}
