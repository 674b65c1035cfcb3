import '@mantine/core/styles/Breadcrumbs.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Breadcrumbs, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../../components/ui/PasswordField';
import { api } from '@portal/contract';
import { privacyLinks } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { PhoneInput } from '../../components/ui/PhoneInput';
import { cpfCnpjMask } from '../../components/ui/masks';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { serverErrorText } from '../../lib/forms';
import { useRegister } from './api/register';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

const schema = api.register.body;
type RegistrationForm = z.input<typeof schema>;
type RegistrationValues = z.output<typeof schema>;
type FieldName = 'name' | 'cpfCnpj' | 'phoneNumber' | 'password' | 'password_confirmation';

/** The server's 422 field names are the form's (spec §7 payload), in the form's order. */
const SERVER_FIELDS = {
  name: 'name',
  cpfCnpj: 'cpfCnpj',
  phoneNumber: 'phoneNumber',
  password: 'password',
  password_confirmation: 'password_confirmation',
} as const satisfies Record<string, FieldName>;

export function RegisterPage() {
  usePageTitle('Criar conta');
  const navigate = useNavigate();
  const registration = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegistrationForm, unknown, RegistrationValues>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', cpfCnpj: '', phoneNumber: '', password: '', password_confirmation: '', type: 'driver' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await registration.mutateAsync(values);
      await navigate('/dashboard', { replace: true });
    } catch (error) {
      // spec §8: the server's messages under their fields, only the rest in the alert.
      setFailure(serverErrorText(error, setError, SERVER_FIELDS));
    }
  });

  const errorText = (field: FieldName) => {
    const message = errors[field]?.message;
    return message ? <span style={{ whiteSpace: 'pre-line' }}>{message}</span> : undefined;
  };

  return (
    <Container size={520} px="md" py="lg" component="main">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <nav aria-label="Você está em">
            <Breadcrumbs separator="›">
              <Anchor component={Link} to="/login" py={10}>
                Entrar
              </Anchor>
              <Text component="span" aria-current="page" fw={600}>
                Criar conta
              </Text>
            </Breadcrumbs>
          </nav>
          <Button component={Link} to="/login" variant="subtle" size="sm" leftSection={<IconArrowLeft size={18} aria-hidden />}>
            Voltar
          </Button>
        </Group>

        <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={1}>Criar conta</Title>
              <Text c="dimmed">Preencha seus dados para começar a usar o portal.</Text>
            </Stack>

            {failure ? (
              <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
                <span style={{ whiteSpace: 'pre-line' }}>{failure}</span>
              </Alert>
            ) : null}

            <PrerenderedForm onSubmit={onSubmit}>
              <Stack gap="md">
                <TextInput label="Nome completo" autoComplete="name" error={errorText('name')} {...register('name')} />
                <Controller
                  control={control}
                  name="cpfCnpj"
                  render={({ field }) => (
                    <MaskedInput
                      label="CPF/CNPJ"
                      maskOptions={cpfCnpjMask}
                      name={field.name}
                      value={String(field.value ?? '')}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      error={errorText('cpfCnpj')}
                      autoComplete="username"
                      placeholder="000.000.000-00"
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="phoneNumber"
                  render={({ field }) => (
                    <PhoneInput
                      name={field.name}
                      value={String(field.value ?? '')}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      error={errorText('phoneNumber')}
                    />
                  )}
                />
                <PasswordField
                  label="Senha"
                  description="Pelo menos 8 caracteres."
                  autoComplete="new-password"
                  error={errorText('password')}
                  {...register('password')}
                />
                <PasswordField
                  label="Confirmação de senha"
                  autoComplete="new-password"
                  error={errorText('password_confirmation')}
                  visibilityToggleButtonProps={{ 'aria-label': 'Mostrar ou ocultar a confirmação de senha' }}
                  {...register('password_confirmation')}
                />
                {/* Decision 72: what is kept and why, before the account exists; another tab keeps what was typed here. */}
                <Stack gap={0}>
                  <Text size="sm" c="gray.7">
                    {privacyLinks.registration}
                  </Text>
                  <Anchor
                    component={Link}
                    to={privacyLinks.path}
                    target="_blank"
                    rel="noopener"
                    aria-label={`${privacyLinks.label} (abre em outra aba)`}
                    fw={600}
                    py={10}
                    style={{ display: 'inline-flex', alignItems: 'center', gap: 6, alignSelf: 'flex-start' }}
                  >
                    {privacyLinks.label}
                    <IconExternalLink size={18} aria-hidden />
                  </Anchor>
                </Stack>
                <Button type="submit" fullWidth loading={isSubmitting}>
                  Criar conta
                </Button>
              </Stack>
            </PrerenderedForm>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
