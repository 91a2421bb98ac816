import { describe, expect, it } from 'vitest';
import {
  checkBudget,
  eagerModules,
  findManifestKey,
  formatBudgetReport,
  staticClosure,
  type Manifest,
} from './first-load';

/** A small app: an entry sharing a vendor chunk with a lazy chart, and a lazy settings page. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_shared-b.js', '_runtime-c.js'],
    dynamicImports: [
      'src/features/usage/components/usage-chart.tsx',
      'src/app/routes/settings.tsx',
    ],
  },
  '_shared-b.js': { file: 'assets/shared-b.js', imports: ['_runtime-c.js'] },
  '_runtime-c.js': { file: 'assets/runtime-c.js' },
  'src/features/usage/components/usage-chart.tsx': {
    file: 'assets/usage-chart-d.js',
    src: 'src/features/usage/components/usage-chart.tsx',
    isDynamicEntry: true,
    imports: ['_shared-b.js', '_chart-vendor-e.js', 'index.html'],
  },
  '_chart-vendor-e.js': { file: 'assets/chart-vendor-e.js' },
  'src/app/routes/settings.tsx': {
    file: 'assets/settings-f.js',
    src: 'src/app/routes/settings.tsx',
    isDynamicEntry: true,
    imports: ['_shared-b.js', '_form-g.js'],
  },
  '_form-g.js': { file: 'assets/form-g.js' },
  '_style-h.css': { file: 'assets/style-h.css' },
};

describe('staticClosure', () => {
  it.each([
    {
      roots: ['index.html'],
      files: ['assets/index-a.js', 'assets/shared-b.js', 'assets/runtime-c.js'],
    },
    {
      roots: ['index.html', 'src/features/usage/components/usage-chart.tsx'],
      files: [
        'assets/index-a.js',
        'assets/shared-b.js',
        'assets/runtime-c.js',
        'assets/usage-chart-d.js',
        'assets/chart-vendor-e.js',
      ],
    },
    {
      roots: ['src/app/routes/settings.tsx'],
      files: [
        'assets/settings-f.js',
        'assets/shared-b.js',
        'assets/runtime-c.js',
        'assets/form-g.js',
      ],
    },
  ])(
    'loads $roots as $files.length scripts, each once, lazy ones only as roots',
    ({ roots, files }) => {
      expect(staticClosure(manifest, roots)).toEqual(files);
    },
  );

  it('counts scripts only', () => {
    const withCss: Manifest = {
      'index.html': { file: 'assets/index-a.js', imports: ['_style-h.css'] },
      '_style-h.css': { file: 'assets/style-h.css' },
    };
    expect(staticClosure(withCss, ['index.html'])).toEqual(['assets/index-a.js']);
  });

  it('names a chunk the manifest lacks', () => {
    expect(() => staticClosure(manifest, ['src/gone.tsx'])).toThrow('no chunk "src/gone.tsx"');
  });
});

describe('findManifestKey', () => {
  it('finds a module by its file name, wherever its folder', () => {
    expect(findManifestKey(manifest, 'usage-chart.tsx')).toBe(
      'src/features/usage/components/usage-chart.tsx',
    );
    expect(findManifestKey(manifest, 'index.html')).toBe('index.html');
  });

  it('refuses a name it cannot find, or finds twice', () => {
    expect(() => findManifestKey(manifest, 'chart.tsx')).toThrow('found none');
    const twice: Manifest = {
      'src/a/usage-chart.tsx': { file: 'assets/a.js' },
      'src/b/usage-chart.tsx': { file: 'assets/b.js' },
    };
    expect(() => findManifestKey(twice, 'usage-chart.tsx')).toThrow(
      'found src/a/usage-chart.tsx, src/b/usage-chart.tsx',
    );
  });
});

describe('eagerModules', () => {
  const firstLoad = staticClosure(manifest, ['index.html']);

  it('passes modules that load as chunks of their own, after the first load', () => {
    expect(eagerModules(manifest, firstLoad, ['usage-chart.tsx', 'settings.tsx'])).toEqual([]);
  });

  it('names a module in a first-load chunk, or without a chunk of its own', () => {
    const withChart = [...firstLoad, 'assets/usage-chart-d.js'];
    expect(
      eagerModules(manifest, withChart, ['usage-chart.tsx', 'settings.tsx', 'merged.tsx']),
    ).toEqual(['usage-chart.tsx', 'merged.tsx']);
  });
});

describe('checkBudget', () => {
  const scripts = [
    { file: 'assets/index-a.js', bytes: 2048 },
    { file: 'assets/shared-b.js', bytes: 6144 },
  ];

  it.each([
    { budget: 8192, over: false },
    { budget: 8191, over: true },
  ])('with a budget of $budget bytes, 8192 bytes are over: $over', ({ budget, over }) => {
    const report = checkBudget(scripts, budget);
    expect(report.total).toBe(8192);
    expect(report.over).toBe(over);
  });

  it('names every script, largest first, in the message', () => {
    const message = formatBudgetReport(checkBudget(scripts, 7168), 'First load');
    expect(message.split('\n')).toEqual([
      'First load: 8.0 KB, over the 7.0 KB budget by 1.0 KB.',
      '     6.0 KB  assets/shared-b.js',
      '     2.0 KB  assets/index-a.js',
    ]);
    expect(formatBudgetReport(checkBudget(scripts, 10240), 'First load')).toMatch(
      /^First load: 8\.0 KB, within the 10\.0 KB budget \(2\.0 KB to spare\)\./,
    );
  });
});
