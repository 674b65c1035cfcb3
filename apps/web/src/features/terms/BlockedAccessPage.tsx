import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/RadioIndicator.css';
import { Alert, Button, Container, Paper, Radio, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconAlertCircle, IconCircleCheck, IconDownload, IconLock } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError } from '../../lib/api';
import { getToken, removeToken, setTermsFlag, setToken } from '../../lib/storage';
import { acceptTerms, downloadCurrentTerms, rejectTerms } from './termsApi';

type Choice = 'aceito' | 'rejeito';
type Notice = { tone: 'error' | 'info'; text: string } | null;

/**
 * SPEC 2 /blocked-access + decision 8: the token leaves localStorage when the page loads and is
 * kept in memory for the download, accept and reject calls; accepting puts it back.
 */
export function BlockedAccessPage() {
  usePageTitle('Acesso Bloqueado');
  const navigate = useNavigate();
  // Read once, before the effect below removes it from storage.
  const [token] = useState<string | null>(() => getToken());
  const [choice, setChoice] = useState<Choice | null>(null);
  const [busy, setBusy] = useState<'download' | 'confirm' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    removeToken();
  }, []);

  if (!token) {
    return (
      <Container size={560} px="md" py="xl" component="main">
        <Paper withBorder p="lg" radius="lg">
          <Stack gap="md">
            <Title order={1}>Acesso Bloqueado</Title>
            <Text>
              Para usar o Portal do Motorista é preciso aceitar os Termos de Uso. Sua sessão não está mais ativa
              nesta página: entre novamente para ler e aceitar os termos.
            </Text>
            <Button component={Link} to="/login" replace fullWidth>
              Ir para o login
            </Button>
          </Stack>
        </Paper>
      </Container>
    );
  }

  const failed = (error: unknown, text: string) => {
    if (isApiError(error) && error.isUnauthorized) return; // already on the way to /login
    setNotice({ tone: 'error', text });
  };

  const download = async () => {
    setBusy('download');
    setNotice(null);
    try {
      await downloadCurrentTerms(token);
    } catch (error) {
      failed(error, messages.terms.genericError);
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!choice) {
      setNotice({ tone: 'error', text: 'Escolha se aceita ou rejeita os Termos de Uso.' });
      return;
    }
    setBusy('confirm');
    setNotice(null);
    if (choice === 'aceito') {
      try {
        await acceptTerms(token);
        setToken(token);
        setTermsFlag('aceito');
        await navigate('/dashboard', { replace: true });
      } catch (error) {
        failed(error, messages.terms.acceptFailed);
        setBusy(null);
      }
      return;
    }
    try {
      await rejectTerms(token);
      setNotice({ tone: 'info', text: messages.terms.rejected });
    } catch (error) {
      failed(error, messages.terms.rejectFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Container size={560} px="md" py="xl" component="main">
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="lg">
          <Stack gap="sm" align="flex-start">
            <ThemeIcon size={48} radius="xl" color="red" variant="light" aria-hidden>
              <IconLock size={28} />
            </ThemeIcon>
            <Title order={1}>Acesso Bloqueado</Title>
            <Text>
              Para usar o Portal do Motorista você precisa aceitar os Termos de Uso. Leia o documento e informe a sua
              decisão abaixo.
            </Text>
          </Stack>

          <Button
            variant="light"
            leftSection={<IconDownload size={20} aria-hidden />}
            onClick={download}
            loading={busy === 'download'}
            disabled={busy === 'confirm'}
            fullWidth
          >
            Baixar Termos de Uso
          </Button>

          <Radio.Group
            label="Sua decisão sobre os Termos de Uso"
            value={choice}
            onChange={(value) => setChoice(value as Choice)}
          >
            <Stack gap="sm" mt="xs">
              <Radio value="aceito" label="Aceito os termos" size="md" />
              <Radio value="rejeito" label="Rejeito os termos" size="md" />
            </Stack>
          </Radio.Group>

          <Text size="sm" c="dimmed">
            Ao rejeitar, o seu acesso ao portal continua restrito até que você aceite os Termos de Uso.
          </Text>

          {notice ? (
            <Alert
              color={notice.tone === 'error' ? 'red' : 'road'}
              icon={notice.tone === 'error' ? <IconAlertCircle aria-hidden /> : <IconCircleCheck aria-hidden />}
              role={notice.tone === 'error' ? 'alert' : 'status'}
            >
              {notice.text}
            </Alert>
          ) : null}

          <Button onClick={confirm} loading={busy === 'confirm'} disabled={busy === 'download'} fullWidth>
            Confirmar
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
