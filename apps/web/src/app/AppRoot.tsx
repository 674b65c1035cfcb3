import { StrictMode } from 'react';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './AppProviders';

/**
 * The whole app's element tree. The browser and the build-time prerender of /login both render
 * exactly this, so hydration finds the same markup (and the same useId values).
 */
export function AppRoot({ router }: { router: DataRouter }) {
  return (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
}
