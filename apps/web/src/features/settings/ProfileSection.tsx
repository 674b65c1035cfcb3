import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DriverProfile } from '@portal/contract';
import { formatCpfCnpj, formatPhone } from '@portal/domain';
import { IconUserCheck } from '@tabler/icons-react';
import { useDeferredValue, useEffect } from 'react';
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

const EMPTY_FORM: ProfileFormInput = { nome: '', telefone: '', senha: '' };

/**
 * The name and the phone, corrected with the password (issue 35: LGPD art. 18, III). Drawn with the
 * page, as the prerender drew it: the fields are filled when the data arrives, and until then neither
 * they nor 'Salvar dados' can be used (a skeleton in its place pushed every section below down when
 * the form replaced it).
 */
function ProfileForm({ profile }: { profile: DriverProfile | undefined }) {
  const save = useUpdateProfile();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, defaultValues },
  } = useForm<ProfileFormInput, unknown, ProfileFormValues>({
    resolver: zodResolver(profileForm),
    defaultValues: profile ? formOf(profile) : EMPTY_FORM,
  });
  // Each saved version refills the form (a correction from another device too).
  useEffect(() => {
    if (profile) reset(formOf(profile));
  }, [profile, reset]);
  // Usable once the fields hold the saved data (the reset above), as the alert level's form.
  const loaded = Boolean(defaultValues?.nome);

  const onSubmit = handleSubmit(async (correction) => {
    try {
      const answer = await save.mutateAsync(correction);
      reset(formOf(answer.Dados));
      toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE });
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS);
    }
  });

  return (
    <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-labelledby="seus-dados">
      <Stack gap="md">
        <Stack gap={2}>
          <Text size="sm" fw={600} c="gray.7">
            CPF/CNPJ
          </Text>
          <Skeleton visible={!profile} width="fit-content" radius="sm">
            <Text fw={700} data-testid="cpf-cnpj">
              {profile ? formatCpfCnpj(profile.cpfCnpj) : '000.000.000-00'}
            </Text>
          </Skeleton>
          <Text size="sm" c="gray.7">
            O CPF/CNPJ identifica sua conta e não pode ser alterado.
          </Text>
        </Stack>
        <TextInput
          label="Nome completo"
          autoComplete="name"
          size="md"
          disabled={!loaded}
          error={errors.nome?.message}
          {...register('nome')}
        />
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
              disabled={!loaded}
            />
          )}
        />
        <PasswordField
          label="Senha"
          description="Para confirmar que é você: a mesma senha com que você entra no portal."
          size="md"
          autoComplete="current-password"
          disabled={!loaded}
          error={errors.senha?.message}
          {...register('senha')}
        />
        <NetworkSubmitButton loading={isSubmitting} disabled={!loaded} leftSection={<IconUserCheck size={22} aria-hidden />}>
          Salvar dados
        </NetworkSubmitButton>
        {profile?.alteradoEm ? (
          <Text size="sm" c="gray.7">
            Última alteração: <DateTime value={profile.alteradoEm} />
          </Text>
        ) : null}
      </Stack>
    </PrerenderedForm>
  );
}

/** 'Seus dados': what the portal knows of the driver, and the correction of the name and phone. */
export function ProfileSection() {
  const profile = useProfile();
  const data = useDeferredValue(profile.data?.Dados);
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
        ) : (
          <ProfileForm profile={data} />
        )}
      </Stack>
    </Paper>
  );
}
