/**
 * The numbers of a TabSeparated array cell (`[1,2,3]`; `[]` is none). Unsigned integers, what
 * our statements send (days, bucket indexes, counts), are read digit by digit: 3-4x faster than
 * `split(',').map(Number)`, which took ~1.4 ms of a year-by-workspace request's CPU on dataset M
 * (80 rows of 2 x 128 numbers). Any other cell is read
 * with `Number`.
 */
export function tsvNumbers(cell: string): number[] {
  if (cell.length <= 2) return [];
  const numbers: number[] = [];
  let value = 0;
  for (let i = 1; i < cell.length - 1; i += 1) {
    const code = cell.charCodeAt(i);
    if (code === 44) {
      numbers.push(value);
      value = 0;
    } else if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
    } else {
      return cell.slice(1, -1).split(',').map(Number);
    }
  }
  numbers.push(value);
  return numbers;
}
