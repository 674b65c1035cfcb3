import { Navigate, Outlet } from 'react-router';
import { getToken } from '../lib/storage';
import { isPrerendering } from '../early-paint/prerendering';

/**
 * spec §2: protected routes render only with a token in localStorage 'token'; else /login (replaced).
 * A page prerendered at build time draws the signed-in frame; the browser hydrates it only with a
 * token (main.tsx), and without one renders from scratch, which lands here.
 */
export function RequireAuth() {
  if (!isPrerendering() && !getToken()) return <Navigate to="/login" replace />;
  return <Outlet />;
}
