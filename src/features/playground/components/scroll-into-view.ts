/**
 * Scrolls an element into view, smoothly unless the reader asked for reduced motion. jsdom has
 * no scrolling, so a missing `scrollIntoView` is skipped.
 */
export function scrollIntoViewGently(element: HTMLElement, block: ScrollLogicalPosition) {
  if (typeof element.scrollIntoView !== 'function') return;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block });
}
