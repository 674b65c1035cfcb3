import { createBrowserRouter, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '../lib/http';

export function createAppRouter(routes: RouteObject[]) {
  const router = createBrowserRouter(routes);
  // Any 401 on an authenticated call: the API client already cleared storage; go to /login.
  setUnauthorizedHandler(() => {
    void router.navigate('/login', { replace: true });
  });
  return router;
}
