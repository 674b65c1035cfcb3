import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { PAYOUT_LIMIT_FIELDS, type PayoutLimits } from '@portal/contract';
import { formatDateTime, nightPeriod, PAYOUT_LIMIT_KINDS, payoutLimitLabels, type PayoutLimitKind } from '@portal/domain';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { memo, type ReactNode, useDeferredValue } from 'react';
import { useForm } from 'react-hook-form';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { toastFormAnswer } from '../../components/ui/toastFailure';
import { formatReais } from '../../lib/format';
import { usePayoutLimits, useUpdatePayoutLimits } from './api/payouts';
import { FormSkeleton, LoadFailed } from './LoadStates';
import { payoutLimitsForm, payoutLimitsText, type PayoutLimitsFormInput, type PayoutLimitsFormValues } from './payoutLimitsForm';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

const LIMITS_TITLE = 'Limites de saque Pix';
const LIMITS_RULE =
  'Diminuir um limite vale na hora; aumentar só vale 24 horas depois. É uma proteção do Banco Central contra golpes: quem pegar seu celular não consegue aumentar o limite e sacar tudo de uma vez.';

/** The server's 422 field names (the contract's payoutLimitsRequest) are the form's own. */
const SERVER_FIELDS = { porSaque: 'porSaque', diario: 'diario', noturno: 'noturno' } as const;

/** 'DD/MM/AAAA HH:mm' in São Paulo. */
const untilMinute = (iso: string) => formatDateTime(iso).slice(0, 16);

/** What the field says under it: the value in force while a raise waits, the raise and when, what was used. */
function limitNote(kind: PayoutLimitKind, limits: PayoutLimits): ReactNode {
  const limit = limits[PAYOUT_LIMIT_FIELDS[kind]];
  const lines: string[] = [];
  if (limit.pendente) {
    lines.push(`Em vigor: ${formatReais(limit.valor)}.`);
    lines.push(`Aumento para ${formatReais(limit.pendente.valor)} vale a partir de ${untilMinute(limit.pendente.vigenteEm)}.`);
  }
  if (kind === 'daily') lines.push(`Usado hoje: ${formatReais(limits.usadoHoje)}.`);
  if (kind === 'night' && (limits.usadoNestaNoite > 0 || nightPeriod(new Date()) !== null)) {
    lines.push(`Usado nesta noite: ${formatReais(limits.usadoNestaNoite)}.`);
  }
  if (lines.length === 0) return undefined;
  return lines.map((line) => (
    <span key={line} style={{ display: 'block' }}>
      {line}
    </span>
  ));
}

const PayoutLimitsForm = memo(function PayoutLimitsForm({ limits }: { limits: PayoutLimits }) {
  const save = useUpdatePayoutLimits();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useForm<PayoutLimitsFormInput, unknown, PayoutLimitsFormValues>({
    resolver: zodResolver(payoutLimitsForm),
    defaultValues: payoutLimitsText(limits),
  });

  const onSubmit = handleSubmit((values) =>
    toastFormAnswer(save.mutateAsync(values), { setError, fields: SERVER_FIELDS }, (answer) => reset(payoutLimitsText(answer.Limites)), {
      autoClose: 10_000,
    }),
  );

  return (
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label={LIMITS_TITLE}>
      <Stack gap="md">
        {PAYOUT_LIMIT_KINDS.map((kind) => {
          const name = PAYOUT_LIMIT_FIELDS[kind];
          return (
            <ControlledCurrencyInput
              key={kind}
              control={control}
              name={name}
              label={payoutLimitLabels[kind]}
              description={limitNote(kind, limits)}
              size="lg"
            />
          );
        })}
        <NetworkSubmitButton loading={isSubmitting} leftSection={<IconDeviceFloppy size={22} aria-hidden />}>
          Salvar limites
        </NetworkSubmitButton>
      </Stack>
    </PrerenderedForm>
  );
});

/** Decision 44: the three withdrawal limits, the raises still waiting and what was used, changed here. */
export function PayoutLimitsSection() {
  const limits = usePayoutLimits();
  const data = useDeferredValue(limits.data?.Limites);
  return (
    <Paper component="section" aria-labelledby="limites-saque" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id="limites-saque">
            {LIMITS_TITLE}
          </Title>
          <Text size="sm" c="gray.7">
            {LIMITS_RULE}
          </Text>
        </Stack>
        {data ? (
          <PayoutLimitsForm limits={data} />
        ) : limits.isError ? (
          <LoadFailed
            title="Não foi possível carregar seus limites"
            error={limits.error}
            retrying={limits.isFetching}
            onRetry={() => void limits.refetch()}
          />
        ) : (
          <FormSkeleton fields={3} />
        )}
      </Stack>
    </Paper>
  );
}
