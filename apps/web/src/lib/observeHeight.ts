/**
 * Tells `onHeight` the element's height (border box, whole pixels) now and each time it changes,
 * measured by a ResizeObserver: after the browser's own layout and before the frame is painted, so
 * a layout is never forced while React commits (reading offsetHeight there cost about 20 ms on a
 * desktop, four times that on a phone, in the task that makes a page live). Without ResizeObserver
 * (the unit tests' jsdom) it is read once. Answers the cleanup.
 */
export function observeHeight(element: HTMLElement, onHeight: (height: number) => void): () => void {
  if (typeof ResizeObserver === 'undefined') {
    onHeight(element.offsetHeight);
    return () => undefined;
  }
  let last = -1;
  const observer = new ResizeObserver(([entry]) => {
    const height = Math.round(entry?.borderBoxSize[0]?.blockSize ?? element.offsetHeight);
    if (height === last) return;
    last = height;
    onHeight(height);
  });
  observer.observe(element);
  return () => observer.disconnect();
}
