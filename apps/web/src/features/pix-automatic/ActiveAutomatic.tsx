import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { PixAutomaticAuthorization, PixAutomaticCycle } from '@portal/contract';
import { formatCalendarDay, pixAutomaticCycleStateLabels, pixAutomaticMessages } from '@portal/domain';
import { IconCalendarDue, IconEdit, IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { Money } from '../../components/ui/Money';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { RECEIPT_LINK_LABEL, receiptPath } from '../../lib/receipts';
import { useChangeAutomaticValue } from './api/queries';
import { lazyResolver, valueForm, type ValueFormInput, type ValueFormValues } from './automaticForm';
import { position } from './NewAutomaticForm';
import { AutomaticSummary, CancelAutomaticButton } from './parts';

const texts = {
  active: 'Recarga automática ativa',
  next: 'Próximo débito',
  scheduled: 'Já agendado no seu banco.',
  notYet: 'O pedido de débito vai ao seu banco alguns dias antes.',
  cycles: 'Últimas recargas',
  change: 'Alterar valor',
  newValue: 'Novo valor',
  submit: 'Gerar QR Code com o novo valor',
  back: 'Voltar',
  receiptName: (day: string) => `${RECEIPT_LINK_LABEL} da recarga de ${day}`,
} as const;

/** 'Alterar valor': a new authorization, so a new QR Code to pay (decision 58), said before it is asked. */
function ChangeValueForm({ authorization, onClose }: { authorization: PixAutomaticAuthorization; onClose: () => void }) {
  const change = useChangeAutomaticValue();
  const [resolver] = useState(() => lazyResolver(valueForm));
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<ValueFormInput, unknown, ValueFormValues>({ resolver, defaultValues: { valor: '' } });

  const onSubmit = handleSubmit(async ({ valor }) => {
    try {
      await change.mutateAsync({ id: authorization.id, valor });
    } catch (failure) {
      toastFormFailure(failure, setError, { valor: 'valor' }, position);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={texts.change}>
      <Stack gap="sm">
        <Text size="sm" c="dark.7">
          {pixAutomaticMessages.changeExplained}
        </Text>
        <ControlledCurrencyInput control={control} name="valor" label={texts.newValue} size="lg" data-autofocus />
        <NetworkSubmitButton loading={isSubmitting} leftSection={<IconQrcode size={20} aria-hidden />}>
          {texts.submit}
        </NetworkSubmitButton>
        <Button variant="subtle" fullWidth onClick={onClose}>
          {texts.back}
        </Button>
      </Stack>
    </form>
  );
}

function CycleLine({ cycle }: { cycle: PixAutomaticCycle }) {
  const day = formatCalendarDay(cycle.dataDebito);
  return (
    <Paper component="li" withBorder radius="md" p="xs" data-ciclo={cycle.numero} data-estado={cycle.estado}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {day}
          </Text>
          <Text size="sm" c={cycle.estado === 'RECUSADA' ? 'red.9' : 'dark.7'}>
            {pixAutomaticCycleStateLabels[cycle.estado]}
            {cycle.motivo ? `: ${cycle.motivo}` : ''}
          </Text>
        </Stack>
        <Stack gap={0} align="flex-end">
          <Money reais={cycle.valor} fw={700} />
          {cycle.estado === 'PAGA' ? (
            <Anchor component={Link} to={receiptPath('compra', cycle.id)} size="sm" aria-label={texts.receiptName(day)}>
              {RECEIPT_LINK_LABEL}
            </Anchor>
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The active top-up: its next debit, its last cycles, 'Alterar valor' and 'Cancelar'. */
export function ActiveAutomatic({ authorization }: { authorization: PixAutomaticAuthorization }) {
  const [changing, setChanging] = useState(false);
  const next = authorization.proximoDebito;
  return (
    <>
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Title order={2}>{texts.active}</Title>
          <AutomaticSummary authorization={authorization} />
          {next ? (
            <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="proximo-debito">
              <IconCalendarDue size={28} aria-hidden color="var(--mantine-color-road-8)" style={{ flexShrink: 0 }} />
              <Stack gap={0}>
                <Text size="sm" c="dimmed" fw={600}>
                  {texts.next}
                </Text>
                <Text fw={700}>
                  {formatCalendarDay(next.data)} · <Money reais={next.valor} />
                </Text>
                <Text size="sm" c="dark.7">
                  {next.agendado ? texts.scheduled : texts.notYet}
                </Text>
              </Stack>
            </Group>
          ) : null}
          {changing ? (
            <ChangeValueForm authorization={authorization} onClose={() => setChanging(false)} />
          ) : (
            <Button variant="light" fullWidth leftSection={<IconEdit size={20} aria-hidden />} onClick={() => setChanging(true)}>
              {texts.change}
            </Button>
          )}
          <CancelAutomaticButton authorization={authorization} />
        </Stack>
      </Paper>
      {authorization.ciclos.length > 0 ? (
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg" component="section" aria-labelledby="ultimas-recargas">
          <Stack gap="sm">
            <Title order={2} size="h4" id="ultimas-recargas">
              {texts.cycles}
            </Title>
            <Stack component="ul" gap="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {authorization.ciclos.map((cycle) => (
                <CycleLine key={cycle.id} cycle={cycle} />
              ))}
            </Stack>
          </Stack>
        </Paper>
      ) : null}
    </>
  );
}
