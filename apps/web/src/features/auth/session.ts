import { api, type LoginRequest } from '@portal/contract';
import { request } from '../../lib/api';
import { clearSession, setTermsFlag, setToken, setUser } from '../../lib/storage';

export type LandingPath = '/dashboard' | '/blocked-access';

/**
 * SPEC 4 'Terms' + decision 1: after sign-in, ask for the current term status.
 * No record -> 'inexistente', dashboard; rejected -> /blocked-access; otherwise 'aceito', dashboard.
 */
export async function landingAfterSignIn(userId: number): Promise<LandingPath> {
  try {
    const status = await request(api.status, { params: { userId } });
    if (status.data === null) {
      setTermsFlag('inexistente');
      return '/dashboard';
    }
    if (status.data.action === 'rejeite') return '/blocked-access';
    setTermsFlag('aceito');
    return '/dashboard';
  } catch (error) {
    // Unknown status: the dashboard still shows the terms bar (the flag is not 'aceito').
    console.error(error);
    return '/dashboard';
  }
}

/** POST login-motorista, store token and user_data, then decide where the driver lands. */
export async function signIn(body: LoginRequest): Promise<LandingPath> {
  const response = await request(api.login, { body });
  clearSession();
  setToken(response.Token);
  setUser(response.Data);
  return landingAfterSignIn(response.Data.id);
}
