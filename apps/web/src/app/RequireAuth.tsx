import { Navigate, Outlet } from 'react-router';
import { getToken } from '../lib/storage';

/** SPEC 2: protected routes render only with a token in localStorage 'token'; else /login (replaced). */
export function RequireAuth() {
  if (!getToken()) return <Navigate to="/login" replace />;
  return <Outlet />;
}
