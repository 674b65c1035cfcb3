import { Alert, Anchor, Button, Container, Divider, Group, Paper, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { loginErrors, messages, stripDocument, type LoginFields } from '@portal/domain';
import { IconAlertCircle, IconBrandWhatsapp, IconTruck } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CpfCnpjInput } from '../../components/ui/CpfCnpjInput';
import { formatCpfCnpjInput } from '../../components/ui/cpfCnpjInput';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { API_BASE_URL, isApiError } from '../../lib/http';

export const SUPPORT_PATH = '/api/suporte/whatsapp';
export const LOGIN_TITLE = 'Entrar';

/**
 * The sign-in call (API client, contract, zod) is loaded on the first interaction with the form,
 * not with the page: /login's first download stays small on a weak connection.
 */
const loadSession = () => import('./session');

/** SPEC 8: any refused sign-in reads 'Usuário ou senha incorretos'; throttling and outages say so. */
function failureMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 429 || error.status === 0 || error.status >= 500) return error.message;
    return messages.login.invalidCredentials;
  }
  console.error(error);
  return messages.session.internalError;
}

export function LoginPage() {
  usePageTitle(LOGIN_TITLE);
  const navigate = useNavigate();
  const [values, setValues] = useState<LoginFields>({ cpfCnpj: '', password: '' });
  const [errors, setErrors] = useState<Partial<LoginFields>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cpfCnpjRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // The screen is prerendered (login.html): keep whatever a fast driver typed before hydration.
  useEffect(() => {
    const typed = { cpfCnpj: formatCpfCnpjInput(cpfCnpjRef.current?.value ?? ''), password: passwordRef.current?.value ?? '' };
    if (typed.cpfCnpj || typed.password) setValues(typed);
  }, []);

  const prefetch = () => {
    void loadSession().catch(() => undefined);
  };

  const change = (field: keyof LoginFields, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Like react-hook-form's default: validate on submit, then re-validate on every change.
    if (submitted) setErrors(loginErrors(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    setFailure(null);
    const found = loginErrors(values);
    setErrors(found);
    if (found.cpfCnpj || found.password) {
      (found.cpfCnpj ? cpfCnpjRef : passwordRef).current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const { signIn } = await loadSession();
      const landing = await signIn({ cpfCnpj: stripDocument(values.cpfCnpj), password: values.password });
      await navigate(landing, { replace: true });
    } catch (error) {
      setFailure(failureMessage(error));
      setSubmitting(false);
    }
  };

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

          {failure ? (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="Não foi possível entrar">
              {failure}
            </Alert>
          ) : null}

          {/* POST: a submit before hydration must never put the password in the URL. */}
          <form method="post" onSubmit={onSubmit} onFocus={prefetch} noValidate>
            <Stack gap="md">
              <CpfCnpjInput
                label="CPF/CNPJ"
                name="cpfCnpj"
                value={values.cpfCnpj}
                onChange={(value) => change('cpfCnpj', value)}
                inputRef={cpfCnpjRef}
                error={errors.cpfCnpj}
                autoComplete="username"
                placeholder="000.000.000-00"
              />
              <PasswordInput
                ref={passwordRef}
                label="Senha"
                name="password"
                autoComplete="current-password"
                value={values.password}
                onChange={(event) => change('password', event.currentTarget.value)}
                error={errors.password}
                visibilityToggleButtonProps={{ 'aria-label': 'Mostrar ou ocultar a senha' }}
              />
              <Button type="submit" fullWidth loading={submitting}>
                Entrar
              </Button>
              <Button component={Link} to="/registrar" variant="default" fullWidth>
                Criar conta
              </Button>
            </Stack>
          </form>

          <Divider />
          <Group justify="center">
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
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
