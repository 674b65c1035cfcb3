import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Stack, Title } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { CurrencyInput } from '../../components/ui/CurrencyInput';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useSettings, useUpdateSettings } from './api/settings';
import { FormSkeleton, LoadFailed } from './LoadStates';
import { NotificationsSection } from './NotificationsSection';
import { PayoutLimitsSection } from './PayoutLimitsSection';
import { PixKeysSection } from './PixKeysSection';
import { alertLevelText, settingsForm, type SettingsFormInput, type SettingsFormValues } from './settingsForm';

/** The server's 422 field names (the contract's settingsRequest) on the form's fields. */
const SERVER_FIELDS = { nivelAlertaSaldo: 'nivelAlertaSaldo' } as const;

const LEVEL_LABEL = 'Nível de alerta do saldo';
const LEVEL_HINT = 'O painel avisa quando o saldo de pedágio ficar abaixo deste valor. Até R$ 50.000,00.';

/** The form, once the saved level is known (it starts from it). */
function SettingsForm({ alertLevel }: { alertLevel: number }) {
  const save = useUpdateSettings();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SettingsFormInput, unknown, SettingsFormValues>({
    resolver: zodResolver(settingsForm),
    defaultValues: { nivelAlertaSaldo: alertLevelText(alertLevel) },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync(values);
      reset({ nivelAlertaSaldo: alertLevelText(answer.Preferencias.nivelAlertaSaldo) });
      toast.success(messages.settings.saved, { title: SUCCESS_TOAST_TITLE });
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Configurações">
      <Stack gap="md">
        <Controller
          control={control}
          name="nivelAlertaSaldo"
          render={({ field }) => (
            <CurrencyInput
              label={LEVEL_LABEL}
              description={LEVEL_HINT}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={errors.nivelAlertaSaldo?.message}
              size="lg"
            />
          )}
        />
        <NetworkSubmitButton loading={isSubmitting} leftSection={<IconDeviceFloppy size={22} aria-hidden />}>
          Salvar
        </NetworkSubmitButton>
      </Stack>
    </form>
  );
}

/**
 * Issue 12 /configuracoes: the balance alert level the dashboard warns below (R$ 50,00 until chosen);
 * decision 44: the withdrawal limits and 'Minhas chaves Pix'; issue 25: notifications on this device.
 */
export function SettingsPage() {
  usePageTitle('Configurações');
  const settings = useSettings();
  const level = settings.data?.Preferencias.nivelAlertaSaldo;

  return (
    <FormPage>
      <Title order={1}>Configurações</Title>
      <OfflineNotice />
      <Paper component="section" aria-labelledby="alerta-saldo" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Title order={2} size="h3" id="alerta-saldo">
            Alerta de saldo
          </Title>
          {level !== undefined ? (
            <SettingsForm alertLevel={level} />
          ) : settings.isError ? (
            <LoadFailed
              title="Não foi possível carregar suas configurações"
              error={settings.error}
              retrying={settings.isFetching}
              onRetry={() => void settings.refetch()}
            />
          ) : (
            <FormSkeleton />
          )}
        </Stack>
      </Paper>
      <NotificationsSection />
      <PayoutLimitsSection />
      <PixKeysSection />
    </FormPage>
  );
}
