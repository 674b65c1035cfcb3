import { Notifications, useNotifications } from '@mantine/notifications';
import { TOAST_MS } from '@portal/domain';
import { startTransition, useEffect, useState } from 'react';

/** What the driver does before most toasts: a touch, a click or a key. */
const FIRST_ACTS = ['pointerdown', 'keydown'] as const;

/**
 * Where toasts show. Mantine's container renders a stack per corner in a Portal whose first render
 * is a state update in a layout effect: mounted with the page, or just after it, it was one more
 * synchronous render of 60–100 ms on a phone while the page became live, for a toast most visits
 * never show. It is mounted at the driver's first touch or key, in a transition that yields to what
 * the touch does, so that the toast that answers it (a failure, a confirmation) is only its own
 * render; or when a toast comes first (an event pushed to an open screen). Then it is kept (its exit
 * animations need it). A toast asked for before it is there waits in Mantine's store.
 */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);

  useEffect(() => {
    if (needed) return;
    const mount = () => startTransition(() => setNeeded(true));
    for (const type of FIRST_ACTS) document.addEventListener(type, mount, { capture: true, passive: true, once: true });
    return () => {
      for (const type of FIRST_ACTS) document.removeEventListener(type, mount, { capture: true });
    };
  }, [needed]);

  return needed ? <Notifications position="top-right" autoClose={TOAST_MS} limit={3} zIndex={1000} /> : null;
}
