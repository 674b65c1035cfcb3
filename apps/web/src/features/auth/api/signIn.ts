/**
 * The sign-in call and the login form's rules. Loaded on the first interaction with /login, not
 * with the page (it brings the contract and zod): /login's first download stays small.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { api, type LoginRequest } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { wipeOfflineData } from '../../../lib/persist';
import { queryClient } from '../../../lib/queryClient';
import { clearSession, setTermsFlag, setToken, setUser } from '../../../lib/storage';
import { carryPushSubscription } from './devicePush';
import { authKeys } from './keys';

type LandingPath = '/dashboard' | '/blocked-access';

/** The contract's login body: the domain's messages (spec §5 order), the CPF/CNPJ sent without its mask. */
export const loginResolver = zodResolver(api.login.body);

/** GET /api/termos/status-atual/{userId}: asked once per sign-in, never retried (the landing waits on it). */
const termStatusQuery = (userId: number) =>
  queryOptions({
    queryKey: authKeys.termStatus(userId),
    queryFn: ({ signal }) => request(api.status, { params: { userId }, signal }),
    staleTime: 0,
    retry: false,
  });

/**
 * spec §4 'Terms' + founding decision 1: after sign-in, ask for the current term status.
 * No record -> 'inexistente', dashboard; rejected -> /blocked-access; otherwise 'aceito', dashboard.
 */
async function landingAfterSignIn(userId: number): Promise<LandingPath> {
  try {
    const status = await queryClient.fetchQuery(termStatusQuery(userId));
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
  // Whoever used this phone before, nothing of theirs stays (founding decision 22), nor do their
  // notifications (issue 25).
  clearSession();
  await wipeOfflineData();
  setToken(response.Token);
  setUser(response.Data);
  await carryPushSubscription(response.Data.id);
  return landingAfterSignIn(response.Data.id);
}
