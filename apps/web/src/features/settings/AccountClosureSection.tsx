import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ClosureBlocker } from '@portal/contract';
import { CLOSURE_CONFIRMATION_TEXT, closureBlockerActions, type ClosureBlockerKind } from '@portal/domain';
import { IconDoorExit } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { readableAlert } from '../../components/ui/readableAlert';
import { PasswordField } from '../../components/ui/PasswordField';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { isApiError } from '../../lib/http';
import { rememberClosedAccount } from '../../lib/closedAccount';
import { wipeOfflineData } from '../../lib/persist';
import { clearSession } from '../../lib/storage';
import { closureKeys, useCloseAccount, useClosureStatus } from './api/accountClosure';
import { accountClosureForm, type AccountClosureFormInput, type AccountClosureFormValues } from './accountClosureForm';
import { FormSkeleton, LoadFailed } from './LoadStates';

/** The server's 422 field names (the contract's closureRequest) are the form's own. */
const SERVER_FIELDS = { senha: 'senha', confirmacao: 'confirmacao' } as const;

/** Where the driver clears each blocker. */
const BLOCKER_PATHS: Readonly<Record<ClosureBlockerKind, string>> = {
  saldo: '/saldo/retirar',
  saldoNegativo: '/saldo/comprar',
  saldoTerceiro: '/extrato/listar',
  saldoTerceiroNegativo: '/extrato/listar',
  saque: '/extrato/listar',
  pix: '/extrato/listar',
  recargaAutomatica: '/saldo/recarga-automatica',
  vpo: '/vpos/listar',
  dinheiroVpo: '/vpos/listar',
  contestacao: '/contestacoes',
};

function Blockers({ blockers }: { blockers: readonly ClosureBlocker[] }) {
  return (
    <Alert color="yellow" variant="light" title="Antes de encerrar, resolva isto" role="status" styles={readableAlert}>
      <List spacing="sm" size="sm" data-testid="pendencias-encerramento">
        {blockers.map((b) => (
          <List.Item key={b.motivo}>
            <Text size="sm" span>
              {b.mensagem}{' '}
            </Text>
            <Anchor component={Link} to={BLOCKER_PATHS[b.motivo]} size="sm" fw={600}>
              {closureBlockerActions[b.motivo]}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The password and the ticked sentence; a red button. After it, the receipt's link is kept for /login and the driver leaves. */
function ClosureForm() {
  const close = useCloseAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountClosureFormInput, unknown, AccountClosureFormValues>({
    resolver: zodResolver(accountClosureForm),
    defaultValues: { senha: '', confirmacao: false },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await close.mutateAsync(values);
      rememberClosedAccount({ url: answer.Comprovante.url, expiresAt: answer.Comprovante.expiraEm });
      // Every session ended on the server: nothing of the account stays on this phone either.
      clearSession();
      await wipeOfflineData();
      queryClient.clear();
      await navigate('/login', { replace: true });
    } catch (failure) {
      // Something landed meanwhile (a passage, a purchase): the list is read again and shown.
      if (isApiError(failure) && failure.status === 409) await queryClient.invalidateQueries({ queryKey: closureKeys.status });
      toastFormFailure(failure, setError, SERVER_FIELDS);
    }
  });

  return (
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-labelledby="encerrar-conta">
      <Stack gap="md">
        <Text size="sm">
          Ao encerrar, todas as suas sessões terminam, suas tags são canceladas na operadora, a recarga automática é cancelada e seu nome,
          telefone, senha, chaves Pix e aparelhos são apagados. O extrato, os comprovantes, os VPOs e as contestações ficam guardados por 5
          anos, como a lei exige. Você recebe um comprovante do que foi apagado e do que foi guardado.
        </Text>
        <PasswordField
          label="Senha"
          description="Para confirmar que é você: a mesma senha com que você entra no portal."
          size="md"
          autoComplete="current-password"
          error={errors.senha?.message}
          {...register('senha')}
        />
        <Controller
          control={control}
          name="confirmacao"
          render={({ field }) => (
            <Checkbox
              ref={field.ref}
              name={field.name}
              checked={field.value === true}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              label={CLOSURE_CONFIRMATION_TEXT}
              error={errors.confirmacao?.message}
              size="md"
            />
          )}
        />
        <Button type="submit" color="red" size="md" loading={isSubmitting} leftSection={<IconDoorExit size={22} aria-hidden />}>
          Encerrar conta
        </Button>
      </Stack>
    </PrerenderedForm>
  );
}

/** Issue 35, decision 70: 'Encerrar conta', what keeps it from closing and how to clear it, or the form. */
export function AccountClosureSection() {
  const status = useClosureStatus();
  const data = useDeferredValue(status.data?.Encerramento);
  return (
    <Paper component="section" aria-labelledby="encerrar-conta" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Title order={2} size="h3" id="encerrar-conta">
          Encerrar conta
        </Title>
        {data ? (
          data.podeEncerrar ? (
            <ClosureForm />
          ) : (
            <Blockers blockers={data.pendencias} />
          )
        ) : status.isError ? (
          <LoadFailed
            title="Não foi possível ver se a conta pode ser encerrada"
            error={status.error}
            retrying={status.isFetching}
            onRetry={() => void status.refetch()}
          />
        ) : (
          <FormSkeleton fields={2} />
        )}
      </Stack>
    </Paper>
  );
}
