import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DriverProfile } from '@portal/contract';
import { formatCpfCnpj, formatPhone } from '@portal/domain';
import { IconUserCheck, IconUserEdit } from '@tabler/icons-react';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { PasswordField } from '../../components/ui/PasswordField';
import { DateTime } from '../../components/ui/DateTime';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { PhoneInput } from '../../components/ui/PhoneInput';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { useProfile, useUpdateProfile } from './api/profile';
import { LoadFailed } from './LoadStates';
import { profileForm, type ProfileFormInput, type ProfileFormValues } from './profileForm';

/** The server's 422 field names (the contract's profileUpdateRequest) are the form's own. */
const SERVER_FIELDS = { nome: 'nome', telefone: 'telefone', senha: 'senha' } as const;

const formOf = (profile: DriverProfile): ProfileFormInput => ({ nome: profile.nome, telefone: formatPhone(profile.telefone), senha: '' });

/** A label and its value; a skeleton of the same line until the value arrives. */
function Datum({ label, value, placeholder, testId }: { label: string; value: string | undefined; placeholder: string; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600} c="gray.7">
        {label}
      </Text>
      <Skeleton visible={value === undefined} width="fit-content" radius="sm">
        <Text fw={700} data-testid={testId}>
          {value ?? placeholder}
        </Text>
      </Skeleton>
    </Stack>
  );
}

/** The CPF/CNPJ, the account's identity, and why it cannot be corrected (on the data and in the form). */
function AccountIdentity({ cpfCnpj }: { cpfCnpj: string | undefined }) {
  return (
    <Stack gap={2}>
      <Datum label="CPF/CNPJ" value={cpfCnpj && formatCpfCnpj(cpfCnpj)} placeholder="000.000.000-00" testId="cpf-cnpj" />
      <Text size="sm" c="gray.7">
        O CPF/CNPJ identifica sua conta e não pode ser alterado.
      </Text>
    </Stack>
  );
}

/** What the portal holds: the CPF/CNPJ (fixed), the name and the phone, and when they last changed. */
function ProfileData({ profile }: { profile: DriverProfile | undefined }) {
  return (
    <Stack gap="sm">
      <AccountIdentity cpfCnpj={profile?.cpfCnpj} />
      <Datum label="Nome completo" value={profile?.nome} placeholder="Nome completo do motorista" />
      <Datum label="Telefone" value={profile && formatPhone(profile.telefone)} placeholder="(00) 00000-0000" />
      {profile?.alteradoEm ? (
        <Text size="sm" c="gray.7">
          Última alteração: <DateTime value={profile.alteradoEm} />
        </Text>
      ) : null}
    </Stack>
  );
}

/** The name and the phone, corrected with the password (issue 35: LGPD art. 18, III). */
function ProfileForm({ profile, onClose }: { profile: DriverProfile; onClose: () => void }) {
  const save = useUpdateProfile();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormInput, unknown, ProfileFormValues>({ resolver: zodResolver(profileForm), defaultValues: formOf(profile) });
  // Opened by 'Corrigir nome ou telefone': the driver types where the form begins.
  useEffect(() => setFocus('nome'), [setFocus]);

  const onSubmit = handleSubmit(async (correction) => {
    try {
      const answer = await save.mutateAsync(correction);
      toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE });
      onClose();
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS);
    }
  });

  return (
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-labelledby="seus-dados">
      <Stack gap="md">
        <AccountIdentity cpfCnpj={profile.cpfCnpj} />
        <TextInput label="Nome completo" autoComplete="name" size="md" error={errors.nome?.message} {...register('nome')} />
        <Controller
          control={control}
          name="telefone"
          render={({ field }) => (
            <PhoneInput
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={errors.telefone?.message}
              size="md"
            />
          )}
        />
        <PasswordField
          label="Senha"
          description="Para confirmar que é você: a mesma senha com que você entra no portal."
          size="md"
          autoComplete="current-password"
          error={errors.senha?.message}
          {...register('senha')}
        />
        {/* One under the other: side by side, 'Salvar dados' did not fit a 360 px phone. */}
        <Stack gap="sm">
          <NetworkSubmitButton loading={isSubmitting} leftSection={<IconUserCheck size={22} aria-hidden />}>
            Salvar dados
          </NetworkSubmitButton>
          <Button variant="default" size="md" fullWidth onClick={onClose} disabled={isSubmitting}>
            Cancelar
          </Button>
        </Stack>
      </Stack>
    </PrerenderedForm>
  );
}

/**
 * 'Seus dados': what the portal knows of the driver, drawn with the page (skeletons in place of the
 * values until they arrive, so nothing below moves), and the correction of the name and phone in a
 * form the driver opens. Drawn open on every visit, the form (a masked phone, the password) was the
 * screen's heaviest part, for a correction made rarely.
 */
export function ProfileSection() {
  const profile = useProfile();
  const data = useDeferredValue(profile.data?.Dados);
  const [correcting, setCorrecting] = useState(false);
  const correctButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setCorrecting(false);
    // The focus goes back where the form was opened from.
    requestAnimationFrame(() => correctButton.current?.focus());
  };
  return (
    <Paper component="section" aria-labelledby="seus-dados" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id="seus-dados">
            Seus dados
          </Title>
          <Text size="sm" c="gray.7">
            Corrija seu nome e seu telefone. Avisamos você em todos os seus aparelhos quando eles mudam.
          </Text>
        </Stack>
        {data === undefined && profile.isError ? (
          <LoadFailed
            title="Não foi possível carregar seus dados"
            error={profile.error}
            retrying={profile.isFetching}
            onRetry={() => void profile.refetch()}
          />
        ) : correcting && data ? (
          // A key per saved version: a correction from another device refills the form.
          <ProfileForm key={`${data.nome}|${data.telefone}`} profile={data} onClose={close} />
        ) : (
          <Stack gap="md" align="flex-start">
            <ProfileData profile={data} />
            <Button
              ref={correctButton}
              variant="light"
              size="md"
              leftSection={<IconUserEdit size={22} aria-hidden />}
              disabled={data === undefined}
              onClick={() => setCorrecting(true)}
            >
              Corrigir nome ou telefone
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
