import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/RadioIndicator.css';
import { Alert, Button, Container, Paper, Radio, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft, IconDownload, IconLock } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError } from '../../lib/api';
import { getToken, removeToken } from '../../lib/storage';
import { useAcceptTerms, useDownloadTerms, useRejectTerms } from './api/terms';

type Choice = 'aceito' | 'rejeito';
type Notice = { tone: 'error' | 'restricted'; text: string } | null;

function BackToLogin() {
  return (
    <Button component={Link} to="/login" replace variant="default" fullWidth leftSection={<IconArrowLeft size={20} aria-hidden />}>
      Voltar para o login
    </Button>
  );
}

/**
 * spec §2 /blocked-access + founding decision 8: the token leaves localStorage when the page loads and is
 * kept in memory for the download, accept and reject calls; accepting puts it back. Rejecting
 * leaves the choice open: the driver may still accept, or go back to /login.
 */
export function BlockedAccessPage() {
  usePageTitle('Acesso Bloqueado');
  const navigate = useNavigate();
  // Read once, before the effect below removes it from storage.
  const [token] = useState<string | null>(() => getToken());
  const [choice, setChoice] = useState<Choice | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const download = useDownloadTerms(token ?? undefined);
  const accept = useAcceptTerms(token ?? undefined);
  const reject = useRejectTerms(token ?? undefined);

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
              Para usar o Portal do Motorista é preciso aceitar os Termos de Uso. Sua sessão não está mais ativa nesta página: entre
              novamente para ler e aceitar os termos.
            </Text>
            <Button component={Link} to="/login" replace fullWidth>
              Ir para o login
            </Button>
          </Stack>
        </Paper>
      </Container>
    );
  }

  const failed = (text: string) => (error: unknown) => {
    if (isApiError(error) && error.isUnauthorized) return; // already on the way to /login
    setNotice({ tone: 'error', text });
  };

  const onDownload = () => {
    setNotice(null);
    download.mutate(undefined, { onError: failed(messages.terms.genericError) });
  };

  const onConfirm = () => {
    if (!choice) {
      setNotice({ tone: 'error', text: 'Escolha se aceita ou rejeita os Termos de Uso.' });
      return;
    }
    setNotice(null);
    if (choice === 'aceito') {
      accept.mutate(undefined, {
        onSuccess: () => void navigate('/dashboard', { replace: true }),
        onError: failed(messages.terms.acceptFailed),
      });
    } else {
      reject.mutate(undefined, {
        onSuccess: () => setNotice({ tone: 'restricted', text: messages.terms.rejected }),
        onError: failed(messages.terms.rejectFailed),
      });
    }
  };

  const deciding = accept.isPending || reject.isPending;

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
              Para usar o Portal do Motorista você precisa aceitar os Termos de Uso. Leia o documento e informe a sua decisão abaixo.
            </Text>
          </Stack>

          <Button
            variant="light"
            leftSection={<IconDownload size={20} aria-hidden />}
            onClick={onDownload}
            loading={download.isPending}
            disabled={deciding}
            fullWidth
          >
            Baixar Termos de Uso
          </Button>

          <Radio.Group
            label="Sua decisão sobre os Termos de Uso"
            value={choice}
            onChange={(value) => setChoice(value === 'aceito' || value === 'rejeito' ? value : null)}
          >
            {/* 20 px apart: each radio's 44 px line (global.css) stays its own. */}
            <Stack gap={20} mt="xs">
              <Radio value="aceito" label="Aceito os termos" size="md" />
              <Radio value="rejeito" label="Rejeito os termos" size="md" />
            </Stack>
          </Radio.Group>

          <Text size="sm" c="dimmed">
            Ao rejeitar, o seu acesso ao portal continua restrito até que você aceite os Termos de Uso.
          </Text>

          {notice ? (
            <Alert
              color={notice.tone === 'error' ? 'red' : 'yellow'}
              icon={notice.tone === 'error' ? <IconAlertCircle aria-hidden /> : <IconLock aria-hidden />}
              role={notice.tone === 'error' ? 'alert' : 'status'}
            >
              <Stack gap={4}>
                <Text size="sm" c="dark.7">
                  {notice.text}
                </Text>
                {notice.tone === 'restricted' ? (
                  <Text size="sm" c="dark.7">
                    Você pode aceitar os termos acima quando quiser, ou voltar para o login.
                  </Text>
                ) : null}
              </Stack>
            </Alert>
          ) : null}

          <Stack gap="sm">
            <Button onClick={onConfirm} loading={deciding} disabled={download.isPending} fullWidth>
              Confirmar
            </Button>
            <BackToLogin />
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
