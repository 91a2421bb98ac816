import type { Hono } from 'hono';

/** p50/p95 (nearest rank) of samples in milliseconds. */
export function percentiles(samples: readonly number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

/** Runs `work` once to warm up, then `runs` times, returning each duration in ms. */
export async function timeRuns(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

export interface ExportMeasurement {
  bytes: number;
  seconds: number;
  mbPerSecond: number;
  rssStartMb: number;
  rssMaxMb: number;
}

/** Reads a whole export through the Hono app, sampling RSS at every chunk. */
export async function measureExport(
  app: Hono,
  url: string,
  apiKey: string,
): Promise<ExportMeasurement> {
  const rssStart = process.memoryUsage().rss;
  let rssMax = rssStart;
  const started = performance.now();
  const response = await app.request(url, { headers: { 'x-api-key': apiKey } });
  if (response.status !== 200 || !response.body) throw new Error(`export: HTTP ${response.status}`);
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    bytes,
    seconds,
    mbPerSecond: bytes / 1e6 / seconds,
    rssStartMb: rssStart / 1e6,
    rssMaxMb: rssMax / 1e6,
  };
}
