import '@mantine/core/styles/Breadcrumbs.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Breadcrumbs, Button, Container, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { api } from '@portal/contract';
import { messages, toBrazilianE164 } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { cpfCnpjMask, phoneMask } from '../../components/ui/masks';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import { clearSession, setTermsFlag, setToken, setUser } from '../../lib/storage';

const schema = api.register.body;
type RegistrationForm = z.input<typeof schema>;
type RegistrationValues = z.output<typeof schema>;
type FieldName = 'name' | 'cpfCnpj' | 'phoneNumber' | 'password' | 'password_confirmation';
const FIELDS: readonly FieldName[] = ['name', 'cpfCnpj', 'phoneNumber', 'password', 'password_confirmation'];

/** Each field's server messages (422 errors map), one per line. */
function fieldMessage(list: string[] | undefined): string | undefined {
  return list && list.length > 0 ? list.join('\n') : undefined;
}

export function RegisterPage() {
  usePageTitle('Criar conta');
  const navigate = useNavigate();
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
      const response = await request(api.register, {
        body: { ...values, type: 'driver', phoneNumber: toBrazilianE164(values.phoneNumber) },
      });
      clearSession();
      setToken(response.Token);
      setUser(response.User);
      setTermsFlag('inexistente');
      await navigate('/dashboard', { replace: true });
    } catch (error) {
      if (isApiError(error) && Object.keys(error.errors).length > 0) {
        let focused = false;
        const others: string[] = [];
        for (const [field, list] of Object.entries(error.errors)) {
          const message = fieldMessage(list);
          if (!message) continue;
          if ((FIELDS as readonly string[]).includes(field)) {
            setError(field as FieldName, { type: 'server', message }, { shouldFocus: !focused });
            focused = true;
          } else {
            others.push(message);
          }
        }
        setFailure([error.message || messages.registration.failed, ...others].join('\n'));
        return;
      }
      if (!isApiError(error)) console.error(error);
      setFailure(isApiError(error) ? error.message : messages.session.internalError);
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

            <form onSubmit={onSubmit} noValidate>
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
                    <MaskedInput
                      label="Telefone"
                      maskOptions={phoneMask}
                      name={field.name}
                      value={String(field.value ?? '')}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      error={errorText('phoneNumber')}
                      autoComplete="tel-national"
                      inputMode="tel"
                      placeholder="(00) 00000-0000"
                    />
                  )}
                />
                <PasswordInput
                  label="Senha"
                  description="Pelo menos 8 caracteres."
                  autoComplete="new-password"
                  error={errorText('password')}
                  visibilityToggleButtonProps={{ 'aria-label': 'Mostrar ou ocultar a senha' }}
                  {...register('password')}
                />
                <PasswordInput
                  label="Confirmação de senha"
                  autoComplete="new-password"
                  error={errorText('password_confirmation')}
                  visibilityToggleButtonProps={{ 'aria-label': 'Mostrar ou ocultar a confirmação de senha' }}
                  {...register('password_confirmation')}
                />
                <Button type="submit" fullWidth loading={isSubmitting}>
                  Criar conta
                </Button>
              </Stack>
            </form>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
