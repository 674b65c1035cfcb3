import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** Shown while a route's code arrives on a slow connection. */
export function PageLoader({ label = 'Carregando...' }: { label?: string }) {
  return (
    <Center mih={240} role="status" aria-live="polite">
      <Loader aria-hidden />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
