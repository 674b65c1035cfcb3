import { StrictMode, useEffect } from 'react';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import {
  clearHeldPress,
  clickHeldBeforeHydration,
  replayTypedBeforeHydration,
  submitHeldBeforeHydration,
} from '../early-paint/typedBeforeHydration';
import { LIVE_ATTRIBUTE } from '../early-paint/pageMarkup';
import { AppProviders } from './AppProviders';

/**
 * The whole app's element tree. The browser and the build-time prerender of /login both render
 * exactly this, so hydration finds the same markup (and the same useId values).
 */
export function AppRoot({ router }: { router: DataRouter }) {
  // Effects run once the tree is live (hydrated or rendered): from here a submit is the app's, not
  // the prerendered form's plain POST. Browser journeys wait for this before typing. What was typed
  // in a prerendered form before is typed again, now through the app, and a submit boot.ts held is
  // made now, and a button pressed then is pressed now (early-paint/typedBeforeHydration.ts), its
  // 'Aguarde…' of before replaced by the app's own pending state.
  useEffect(() => {
    replayTypedBeforeHydration(document);
    document.documentElement.setAttribute(LIVE_ATTRIBUTE, 'true');
    clearHeldPress();
    submitHeldBeforeHydration();
    clickHeldBeforeHydration();
  }, []);
  return (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
}
