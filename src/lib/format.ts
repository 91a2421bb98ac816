const countFormat = new Intl.NumberFormat('en-US');
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact' });
const percentFormat = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

export const formatCount = (value: number) => countFormat.format(value);
export const formatCompact = (value: number) => compactFormat.format(value);
export const formatPercent = (ratio: number) => percentFormat.format(ratio);

/** A signed count: "+1,204" or "−310". */
export function formatSignedCount(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${formatCount(Math.abs(value))}`;
}

/** "+12.5%" or "−3.0%": one decimal everywhere, so neighbouring figures line up. */
export function formatSignedPercent(ratio: number): string {
  return `${ratio >= 0 ? '+' : '−'}${formatPercent(Math.abs(ratio))}`;
}
