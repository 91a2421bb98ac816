/** `+1.25 s`: when a step started, relative to the start of the flow. */
export function formatOffset(ms: number): string {
  return `+${(Math.max(0, ms) / 1000).toFixed(2)} s`;
}

/** `850 ms` under a second, `1.2 s` under a minute, `1 min 5 s` beyond. */
export function formatDuration(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  if (rounded < 1000) return `${rounded} ms`;
  if (rounded < 60_000) return `${(rounded / 1000).toFixed(1)} s`;
  const minutes = Math.floor(rounded / 60_000);
  const seconds = Math.round((rounded % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}
