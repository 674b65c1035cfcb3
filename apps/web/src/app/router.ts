import { createBrowserRouter, type RouteObject } from 'react-router';
import { setTermsRefusedHandler, setUnauthorizedHandler } from '../lib/http';
import { markTermsRefused } from '../lib/terms';

/**
 * `prerendered`: the app hydrates a page the build drew (early-paint/), which the driver may have
 * scrolled before the app was live: as for a page rendered on a server, the first render leaves the
 * scroll where it is (RootLayout's ScrollRestoration would otherwise take it to the top). Routes
 * without loaders: there is no data to hydrate.
 */
export function createAppRouter(routes: RouteObject[], { prerendered = false }: { prerendered?: boolean } = {}) {
  const router = createBrowserRouter(routes, prerendered ? { hydrationData: {} } : {});
  // Any 401 on an authenticated call: the API client already cleared storage; go to /login.
  setUnauthorizedHandler(() => {
    void router.navigate('/login', { replace: true });
  });
  // Founding decision 27: the server refused a call for terms not accepted. Issue 25: the driver stays
  // where they are, the terms bar at the top of the screen, and goes on once they are accepted.
  setTermsRefusedHandler(markTermsRefused);
  return router;
}
