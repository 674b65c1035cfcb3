import { createBrowserRouter, type RouteObject } from 'react-router';
import { setTermsRefusedHandler, setUnauthorizedHandler } from '../lib/http';

export function createAppRouter(routes: RouteObject[]) {
  const router = createBrowserRouter(routes);
  // Any 401 on an authenticated call: the API client already cleared storage; go to /login.
  setUnauthorizedHandler(() => {
    void router.navigate('/login', { replace: true });
  });
  // Founding decision 27: the server refused a call for terms not accepted; /blocked-access keeps the token in memory.
  setTermsRefusedHandler(() => {
    void router.navigate('/blocked-access', { replace: true });
  });
  return router;
}
