import { Alert, Anchor, Button, Container, Divider, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { PasswordField } from '../../components/ui/PasswordField';
import { messages, privacyLinks, type LoginFields } from '@portal/domain';
import { IconAlertCircle, IconBrandWhatsapp, IconShieldLock, IconTruck } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { CpfCnpjInput } from '../../components/ui/CpfCnpjInput';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { errorMessage } from '../../lib/errors';
import { API_BASE_URL, isApiError, NETWORK_ERROR_MESSAGE } from '../../lib/http';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';
import { ClosedAccountNotice } from './ClosedAccountNotice';

const SUPPORT_PATH = '/api/suporte/whatsapp';
const LOGIN_TITLE = 'Entrar';

/**
 * The sign-in call and the form's zod rules (contract, zod) are loaded on the first interaction
 * with the form, not with the page: /login's first download stays small on a weak connection.
 */
const loadSignIn = () => import('./api/signIn');

/** The contract's rules, run once their module is here (a submit waits for it). */
const loginResolver: Resolver<LoginFields, unknown, LoginFields> = async (values, context, options) => {
  try {
    const { loginResolver: resolve } = await loadSignIn();
    return await resolve(values, context, options);
  } catch (error) {
    console.error(error);
    return { values: {}, errors: { root: { type: 'network', message: NETWORK_ERROR_MESSAGE } } };
  }
};

/** spec §8: any refused sign-in reads 'Usuário ou senha incorretos'; throttling and outages say so. */
function failureMessage(error: unknown): string {
  if (isApiError(error) && error.status !== 429 && error.status !== 0 && error.status < 500) {
    return messages.login.invalidCredentials;
  }
  return errorMessage(error);
}

export function LoginPage() {
  usePageTitle(LOGIN_TITLE);
  const navigate = useNavigate();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginFields>({ resolver: loginResolver, defaultValues: { cpfCnpj: '', password: '' } });

  const prefetch = () => {
    void loadSignIn().catch(() => undefined);
  };

  const signIn = async (values: LoginFields) => {
    try {
      const { signIn: send } = await loadSignIn();
      await navigate(await send(values), { replace: true });
    } catch (error) {
      setError('root.server', { type: 'server', message: failureMessage(error) });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    void handleSubmit(signIn)(event);
  };

  const failure = errors.root?.server?.message ?? errors.root?.message;

  return (
    <Container size={480} px="md" py="xl" component="main">
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="lg">
          <Stack gap="xs" align="center" ta="center">
            <ThemeIcon size={56} radius="xl" aria-hidden>
              <IconTruck size={32} />
            </ThemeIcon>
            <Title order={1}>Bem-vindo ao Portal do Motorista</Title>
            <Text c="dimmed">Entre com seu CPF ou CNPJ e sua senha.</Text>
          </Stack>

          <ClosedAccountNotice />

          {failure ? (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="Não foi possível entrar">
              {failure}
            </Alert>
          ) : null}

          <PrerenderedForm onSubmit={onSubmit} onFocus={prefetch}>
            <Stack gap="md">
              <Controller
                control={control}
                name="cpfCnpj"
                render={({ field }) => (
                  <CpfCnpjInput
                    label="CPF/CNPJ"
                    name={field.name}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={errors.cpfCnpj?.message}
                    autoComplete="username"
                    placeholder="000.000.000-00"
                  />
                )}
              />
              <Controller
                control={control}
                name="password"
                render={({ field }) => (
                  <PasswordField
                    ref={field.ref}
                    label="Senha"
                    name={field.name}
                    autoComplete="current-password"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={errors.password?.message}
                  />
                )}
              />
              <Button type="submit" fullWidth loading={isSubmitting}>
                Entrar
              </Button>
              <Button component={Link} to="/registrar" variant="default" fullWidth>
                Criar conta
              </Button>
            </Stack>
          </PrerenderedForm>

          <Divider />
          <Stack gap={0} align="center">
            <Anchor
              href={`${API_BASE_URL}${SUPPORT_PATH}`}
              target="_blank"
              rel="noopener noreferrer"
              fw={600}
              py={10}
              style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
            >
              <IconBrandWhatsapp size={20} aria-hidden />
              Precisa de ajuda? Fale com o suporte
            </Anchor>
            {/* Decision 72: the privacy notice, readable before signing in. */}
            <Anchor
              component={Link}
              to={privacyLinks.path}
              py={10}
              ta="center"
              style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
            >
              <IconShieldLock size={20} aria-hidden style={{ flexShrink: 0 }} />
              {privacyLinks.login}
            </Anchor>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
