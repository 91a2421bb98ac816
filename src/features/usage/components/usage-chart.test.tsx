import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { topSeriesWithOther } from '../model/top-series';
import { buildUsageMatrix } from '../model/usage-matrix';
import { seriesColor } from './series-colors';
import { FixedSizeObserver } from '@/testing/fixed-size-observer';
import { UsageChart } from './usage-chart';

afterEach(() => {
  vi.unstubAllGlobals();
});

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const matrix = buildUsageMatrix(
  ['2026-11-01', '2026-11-02', '2026-11-03'].flatMap((date, index) => [
    {
      time_bucket: `${date}T00:00:00Z`,
      traces: 10 + index,
      dimensions: { workspace_id: 'w1', workspace_name: 'Acme' },
    },
    {
      time_bucket: `${date}T00:00:00Z`,
      traces: 5,
      dimensions: { workspace_id: 'w2', workspace_name: 'Globex' },
    },
  ]),
  createBucketGrid(day('2026-11-01'), day('2026-11-04'), { days: 1, hours: 0 }),
  'workspace',
);
const series = topSeriesWithOther(matrix).map((item, index) => ({
  ...item,
  color: seriesColor(item, index),
}));

function renderChart(shown: typeof series, onBucketClick?: (index: number) => void) {
  vi.stubGlobal('ResizeObserver', FixedSizeObserver);
  return render(
    <UsageChart
      matrix={matrix}
      series={shown}
      floorMs={Number.NEGATIVE_INFINITY}
      partialBuckets={[]}
      futureFrom={null}
      pricePer1k={2.5}
      onBucketClick={onBucketClick}
    />,
  );
}

describe('UsageChart', () => {
  it('a clicked bar names its bucket, whichever group it belongs to', async () => {
    const user = userEvent.setup();
    const clicked: number[] = [];
    const { container } = renderChart(series, (index) => clicked.push(index));
    // One stack a day, each split into the two groups' segments.
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(3);
    const segments = [...container.querySelectorAll('.recharts-bar-rectangle rect')];
    expect(segments).toHaveLength(6);
    // Day 2's Globex segment, then day 3's Acme segment.
    const [, , , globexDay2, acmeDay3] = segments;
    if (!globexDay2 || !acmeDay3) throw new Error('segments expected');
    await user.click(globexDay2);
    await user.click(acmeDay3);
    expect(clicked).toEqual([1, 2]);
  });

  it('each stack is split in proportion to its groups, the largest group at the bottom', () => {
    const { container } = renderChart(series);
    const stacks = [...container.querySelectorAll('.recharts-bar-rectangle')];
    stacks.forEach((stack, day) => {
      const [acme, globex] = [...stack.querySelectorAll('rect')].map((rect) => ({
        y: Number(rect.getAttribute('y')),
        height: Number(rect.getAttribute('height')),
        fill: rect.getAttribute('fill'),
      }));
      if (!acme || !globex) throw new Error('two segments expected');
      expect([acme.fill, globex.fill]).toEqual([series[0]?.color, series[1]?.color]);
      // Globex sits right on top of Acme, and their heights are 10 + day : 5.
      expect(globex.y + globex.height).toBeCloseTo(acme.y, 6);
      expect(acme.height / globex.height).toBeCloseTo((10 + day) / 5, 6);
    });
  });

  it('a focused group is drawn alone, in the colour it has in the stack', () => {
    const globex = series.find((item) => item.key === 'w2');
    if (!globex) throw new Error('Globex expected');
    const { container } = renderChart([globex]);
    const bars = container.querySelectorAll('.recharts-bar-rectangle rect');
    expect(bars).toHaveLength(3);
    expect([...bars].every((bar) => bar.getAttribute('fill') === globex.color)).toBe(true);
    expect(globex.color).not.toBe(series[0]?.color);
  });

  it('the keyboard zooms too: arrows move along the buckets, Enter opens the one shown', async () => {
    const user = userEvent.setup();
    const zoomed: number[] = [];
    const { container } = renderChart(series, (index) => zoomed.push(index));
    const surface = container.querySelector<SVGElement>('.recharts-surface');
    if (!surface) throw new Error('chart surface expected');
    surface.focus();
    // Focus shows the first bucket; each arrow moves one bucket on.
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    expect(zoomed).toEqual([2]);
    await user.keyboard('{ArrowLeft}{Enter}');
    expect(zoomed).toEqual([2, 1]);
  });
});
