import { useEffect } from 'react';
import { useActiveTooltipLabel } from 'recharts';

interface KeyboardZoomProps {
  buckets: readonly number[];
  onZoom: (index: number) => void;
}

/**
 * Enter on the focused chart zooms into the bucket its tooltip shows. Recharts' accessibility
 * layer makes the chart focusable and moves the tooltip with the arrow keys, so the keyboard
 * reaches every bar a click does. Rendered inside the chart: it reads the chart's tooltip state.
 */
export function KeyboardZoom({ buckets, onZoom }: KeyboardZoomProps) {
  const label = useActiveTooltipLabel();
  useEffect(() => {
    const index = label === undefined ? -1 : buckets.indexOf(Number(label));
    if (index < 0) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      // Only from the chart (the page has one), whose surface Recharts makes focusable.
      const target = event.target;
      if (event.key !== 'Enter' || !(target instanceof Element)) return;
      if (target.closest('.recharts-wrapper')) onZoom(index);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [label, buckets, onZoom]);
  return null;
}
