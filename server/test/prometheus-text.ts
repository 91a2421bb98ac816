export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, the sample lines only (`name{a="x",b="y"} value`). */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const [, name = '', labelText = '', value = ''] = match;
    const labels = Object.fromEntries(
      [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key = '', v = '']) => [key, v]),
    );
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function valueOf(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, v]) => sample.labels[key] === v))
    .reduce((sum, sample) => sum + sample.value, 0);
}
