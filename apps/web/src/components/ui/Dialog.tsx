import { Modal, type ModalProps } from '@mantine/core';
import { useState } from 'react';

/**
 * Every dialog of the app: Mantine's Modal, mounted from the first time it opens. A closed Modal
 * still mounts its Portal, whose first render is a state update in a layout effect: on the page's
 * start, a synchronous render in the task that makes the page live, for a dialog nobody opened.
 * Once opened it stays mounted, so closing plays its transition and gives the focus back.
 */
export function Dialog(props: ModalProps) {
  const [everOpened, setEverOpened] = useState(props.opened);
  // Adjusting state while rendering (React's documented pattern): the Modal mounts in this same render.
  if (props.opened && !everOpened) setEverOpened(true);
  return everOpened ? <Modal {...props} /> : null;
}
