import { Alert, Group, Radio, Stack, Text } from '@mantine/core';
import type { PixAutomaticAuthorization } from '@portal/contract';
import {
  PIX_AUTOMATIC_FREQUENCIES,
  pixAutomaticFrequencyLabels,
  pixAutomaticFrequencyWords,
  pixAutomaticMessages,
  pixAutomaticStateLabels,
} from '@portal/domain';
import { IconHistory, IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { useCreateAutomatic } from './api/queries';
import { lazyResolver, automaticForm, type AutomaticFormInput, type AutomaticFormValues } from './automaticForm';

/** Founding decision 16: toasts top-center on /saldo/*. */
export const position = 'top-center' as const;

/** The server's 422 field names (the contract's pixAutomaticRequest) on the form's fields. */
const SERVER_FIELDS = { valor: 'valor', frequencia: 'frequencia' } as const;

const texts = {
  value: 'Valor de cada recarga',
  valueHint: 'Mínimo R$ 100,00. O mesmo valor a cada semana ou mês.',
  frequency: 'Frequência',
  submit: 'Gerar QR Code',
  lastTitle: 'Sua última recarga automática',
} as const;

/** The last authorization, ended: which, when and why (cancelled here or in the bank app, refused, expired). */
export function EndedNote({ authorization }: { authorization: PixAutomaticAuthorization }) {
  return (
    <Alert color="gray" variant="light" icon={<IconHistory aria-hidden />} title={texts.lastTitle} data-estado={authorization.estado}>
      <Stack gap={2}>
        <Text size="sm" c="dark.7">
          {pixAutomaticStateLabels[authorization.estado]}: <Money reais={authorization.valor} />,{' '}
          {pixAutomaticFrequencyWords[authorization.frequencia]}
        </Text>
        {authorization.motivoEncerramento ? (
          <Text size="sm" c="dark.7">
            {authorization.motivoEncerramento}
            {authorization.encerradaEm ? (
              <>
                {' '}
                em <DateTime value={authorization.encerradaEm} />
              </>
            ) : null}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The value and the frequency; the answer (the QR Code to pay) replaces the form. */
export function NewAutomaticForm() {
  const create = useCreateAutomatic();
  const [resolver] = useState(() => lazyResolver(automaticForm));
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AutomaticFormInput, unknown, AutomaticFormValues>({
    resolver,
    defaultValues: { valor: '', frequencia: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS, position);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={pixAutomaticMessages.title}>
      <Stack gap="md">
        <ControlledCurrencyInput control={control} name="valor" label={texts.value} description={texts.valueHint} size="lg" />
        <Controller
          control={control}
          name="frequencia"
          render={({ field }) => (
            <Radio.Group
              label={texts.frequency}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              error={errors.frequencia?.message}
              size="md"
            >
              <Group gap="lg" mt={6}>
                {PIX_AUTOMATIC_FREQUENCIES.map((frequency, index) => (
                  <Radio
                    key={frequency}
                    value={frequency}
                    label={pixAutomaticFrequencyLabels[frequency]}
                    ref={index === 0 ? field.ref : undefined}
                  />
                ))}
              </Group>
            </Radio.Group>
          )}
        />
        <NetworkSubmitButton size="lg" loading={isSubmitting} leftSection={<IconQrcode size={22} aria-hidden />}>
          {texts.submit}
        </NetworkSubmitButton>
      </Stack>
    </form>
  );
}
