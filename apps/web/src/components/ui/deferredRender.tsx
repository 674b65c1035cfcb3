import { useDeferredValue, useMemo, type ComponentType, type ReactElement } from 'react';

/**
 * The component, drawn again with new props in a transition: React renders it in slices, yielding
 * to the browser every few milliseconds, instead of in the one long task where the new props came
 * from (a read answering, the offline data restored: TanStack Query's store updates are urgent).
 * The urgent render keeps the last drawing as it is (same element: React skips it); the first
 * render and hydration draw at once. For the lists and panels a read fills: a page's rows of
 * Mantine buttons were a 150–300 ms task on a mid-range phone.
 */
export function deferredRender<Props extends object>(View: ComponentType<Props>): (props: Props) => ReactElement {
  function Deferred(props: Props) {
    const deferred = useDeferredValue(props);
    return useMemo(() => <View {...deferred} />, [deferred]);
  }
  Deferred.displayName = `Deferred(${View.displayName ?? View.name})`;
  return Deferred;
}
