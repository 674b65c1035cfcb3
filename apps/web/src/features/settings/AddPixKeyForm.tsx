import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text, Title } from '@mantine/core';
import { PasswordField } from '../../components/ui/PasswordField';
import { formatBrl, NEW_PIX_KEY_CAP_CENTS } from '@portal/domain';
import { IconKey } from '@tabler/icons-react';
import { memo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { PixKeyInput } from '../../components/ui/PixKeyInput';
import { PixKeyTypeSelect } from '../../components/ui/PixKeyTypeSelect';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { useSavePixKey } from './api/payouts';
import { emptyPixKeyForm, pixKeyForm, type PixKeyFormInput, type PixKeyFormValues } from './pixKeyForm';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

/** The server's 422 field names (the contract's savePixKeyRequest) are the form's own. */
const SERVER_FIELDS = { tipo: 'tipo', chave: 'chave', senha: 'senha' } as const;

const NEW_KEY_RULE = `Para sua segurança, uma chave nova pede sua senha e, nas primeiras 24 horas, recebe no máximo ${formatBrl(NEW_PIX_KEY_CAP_CENTS)}.`;

/** 'Salvar uma chave Pix': type, key (masked as on Sacar) and the password again (decision 44). */
export const AddPixKeyForm = memo(function AddPixKeyForm() {
  const save = useSavePixKey();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PixKeyFormInput, unknown, PixKeyFormValues>({ resolver: zodResolver(pixKeyForm), defaultValues: emptyPixKeyForm });
  const keyType = useWatch({ control, name: 'tipo' });

  const onSubmit = handleSubmit(async (key) => {
    try {
      const answer = await save.mutateAsync(key);
      reset(emptyPixKeyForm);
      toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS);
    }
  });

  return (
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-labelledby="salvar-chave-pix">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={3} size="h4" id="salvar-chave-pix">
            Salvar uma chave Pix
          </Title>
          <Text size="sm" c="gray.7">
            {NEW_KEY_RULE}
          </Text>
        </Stack>
        <Controller
          control={control}
          name="tipo"
          render={({ field }) => (
            <PixKeyTypeSelect
              selectRef={field.ref}
              name={field.name}
              value={field.value}
              onChange={(event) => {
                field.onChange(event);
                // As on Sacar: another type clears the key.
                setValue('chave', '');
                clearErrors('chave');
              }}
              onBlur={field.onBlur}
              error={errors.tipo?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="chave"
          render={({ field }) => (
            <PixKeyInput
              keyType={keyType}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={errors.chave?.message}
              size="md"
            />
          )}
        />
        <Controller
          control={control}
          name="senha"
          render={({ field }) => (
            <PasswordField
              ref={field.ref}
              label="Senha"
              description="A mesma senha com que você entra no portal."
              size="md"
              name={field.name}
              autoComplete="current-password"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.senha?.message}
            />
          )}
        />
        <NetworkSubmitButton loading={isSubmitting} leftSection={<IconKey size={22} aria-hidden />}>
          Salvar chave
        </NetworkSubmitButton>
      </Stack>
    </PrerenderedForm>
  );
});
