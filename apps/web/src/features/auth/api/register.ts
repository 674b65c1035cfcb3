import { api, type RegistrationRequest } from '@portal/contract';
import { toBrazilianE164 } from '@portal/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { wipeOfflineData } from '../../../lib/persist';
import { queryClient } from '../../../lib/queryClient';
import { clearSession, setTermsFlag, setToken, setUser } from '../../../lib/storage';
import { carryPushSubscription } from './devicePush';

/**
 * POST /api/user/create-user as a driver, phone in +55 form; the new session is stored on success
 * (no terms decision yet). /registrar is outside the authenticated shell, so the client is passed.
 */
export function useRegister() {
  return useMutation(
    {
      mutationFn: (values: RegistrationRequest) =>
        request(api.register, { body: { ...values, type: 'driver', phoneNumber: toBrazilianE164(values.phoneNumber) } }),
      onSuccess: async (response) => {
        clearSession();
        await wipeOfflineData();
        setToken(response.Token);
        setUser(response.User);
        // Issue 25: a new account never inherits the notifications turned on in this browser.
        await carryPushSubscription(response.User.id);
        setTermsFlag('inexistente');
      },
    },
    queryClient,
  );
}
