/** A CSV cell: strings are neutralised and quoted as needed; numbers are written as they are. */
export type CsvCell = string | number | null | undefined;

const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * CWE-1236: a spreadsheet runs a cell that starts with `= + - @`, tab or CR as a formula.
 * Prefixing `'` makes it text. Applies to strings only: numeric cells (e.g. `-3`) are never
 * touched, so they stay numbers.
 */
export function neutraliseCsvCell(value: string): string {
  return FORMULA_TRIGGERS.has(value.charAt(0)) ? `'${value}` : value;
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
