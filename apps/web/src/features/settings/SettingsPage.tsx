import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Stack, Title } from '@mantine/core';
import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { memo, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useMayCall } from '../../lib/actingAccount';
import { useSettings, useUpdateSettings } from './api/settings';
import { LoadFailed } from './LoadStates';
import { NotificationsSection } from './NotificationsSection';
import { PayoutLimitsSection } from './PayoutLimitsSection';
import { PixKeysSection } from './PixKeysSection';
import { AccountClosureSection } from './AccountClosureSection';
import { PrivacySection } from './PrivacySection';
import { ProfileSection } from './ProfileSection';
import { DriverDataSection } from './DriverDataSection';
import { FreeFlowSection } from './FreeFlowSection';
import { alertLevelText, settingsForm, type SettingsFormInput, type SettingsFormValues } from './settingsForm';

/** The server's 422 field names (the contract's settingsRequest) on the form's fields. */
const SERVER_FIELDS = { nivelAlertaSaldo: 'nivelAlertaSaldo' } as const;

const LEVEL_LABEL = 'Nível de alerta do saldo';
const LEVEL_HINT = 'O painel avisa quando o saldo de pedágio ficar abaixo deste valor. Até R$ 50.000,00.';

/**
 * The form, drawn with the page (its label and rule at once): the field is filled with the saved
 * level when it arrives, and until then neither it nor 'Salvar' can be used.
 */
const SettingsForm = memo(function SettingsForm({ alertLevel }: { alertLevel: number | undefined }) {
  const save = useUpdateSettings();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting, defaultValues },
  } = useForm<SettingsFormInput, unknown, SettingsFormValues>({
    resolver: zodResolver(settingsForm),
    defaultValues: { nivelAlertaSaldo: alertLevel === undefined ? '' : alertLevelText(alertLevel) },
  });
  useEffect(() => {
    if (alertLevel !== undefined) reset({ nivelAlertaSaldo: alertLevelText(alertLevel) }, { keepDirtyValues: true });
  }, [alertLevel, reset]);
  // Usable once the field holds the saved level (the form's default, from the reset above): enabled
  // when the level arrived, before that reset, what a driver typed in between was mixed with it
  // (R$ 500.060.000,00 seen in a test on a slow machine).
  const loaded = Boolean(defaultValues?.nivelAlertaSaldo);

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
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label="Configurações">
      <Stack gap="md">
        <ControlledCurrencyInput
          control={control}
          name="nivelAlertaSaldo"
          label={LEVEL_LABEL}
          description={LEVEL_HINT}
          size="lg"
          disabled={!loaded}
        />
        <NetworkSubmitButton loading={isSubmitting} disabled={!loaded} leftSection={<IconDeviceFloppy size={22} aria-hidden />}>
          Salvar
        </NetworkSubmitButton>
      </Stack>
    </PrerenderedForm>
  );
});

/**
 * Issue 12 /configuracoes: the balance alert level the dashboard warns below (R$ 50,00 until chosen);
 * decision 44: the withdrawal limits and 'Minhas chaves Pix'; issue 25: notifications on this device;
 * issue 35: 'Seus dados', the name and phone corrected, and 'Meus dados', everything the portal holds as a ZIP;
 * decision 76: 'Pedágio sem cancela', each plate's choice. Decision 77: on a company's account, the
 * sections of the account (its alert level, plates, payouts) only for a role that may use them; the
 * person's own (their data, this device's notifications, privacy) always.
 */
export function SettingsPage() {
  usePageTitle('Configurações');
  const alertLevel = useMayCall(api.settings, api.updateSettings);
  const freeFlow = useMayCall(api.freeFlowPlates, api.setFreeFlowPlates);
  // The limits are the Financeiro's too; the keys, where the money goes, the Gestor's.
  const limits = useMayCall(api.payoutLimits, api.updatePayoutLimits);
  const keys = useMayCall(api.pixKeys);
  return (
    <FormPage>
      <Title order={1}>Configurações</Title>
      <OfflineNotice />
      <ProfileSection />
      <DriverDataSection />
      {alertLevel ? <AlertLevelSection /> : null}
      <NotificationsSection />
      {/* Decision 76: each plate's free-flow tolls kept (with the consent) and paid automatically. */}
      {freeFlow ? <FreeFlowSection /> : null}
      {limits ? <PayoutLimitsSection /> : null}
      {keys ? <PixKeysSection /> : null}
      <PrivacySection />
      {/* Decision 70: the one action that cannot be undone, last. */}
      <AccountClosureSection />
    </FormPage>
  );
}

/** Each section reads its own data: the level's arrival redraws this section, not the page (decision 59, item 10). */
function AlertLevelSection() {
  const settings = useSettings();
  const level = settings.data?.Preferencias.nivelAlertaSaldo;
  return (
    <Paper component="section" aria-labelledby="alerta-saldo" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Title order={2} size="h3" id="alerta-saldo">
          Alerta de saldo
        </Title>
        {level === undefined && settings.isError ? (
          <LoadFailed
            title="Não foi possível carregar suas configurações"
            error={settings.error}
            retrying={settings.isFetching}
            onRetry={() => void settings.refetch()}
          />
        ) : (
          <SettingsForm alertLevel={level} />
        )}
      </Stack>
    </Paper>
  );
}
