import { createBrowserRouter } from 'react-router';
import { setUnauthorizedHandler } from '../lib/http';
import { routes } from './routes';

export const router = createBrowserRouter(routes);

// Any 401 on an authenticated call: the API client already cleared storage; go to /login.
setUnauthorizedHandler(() => {
  void router.navigate('/login', { replace: true });
});
