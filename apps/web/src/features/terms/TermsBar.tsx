import { Anchor, Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconFileDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { toast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { getTermsFlag, setTermsFlag } from '../../lib/storage';
import { acceptTerms, downloadCurrentTerms, rejectTerms } from './termsApi';

type Busy = 'download' | 'accept' | 'reject' | null;

/** A 401 already sent the driver to /login: no extra toast then. */
function sessionEnded(error: unknown): boolean {
  return isApiError(error) && error.isUnauthorized;
}

/**
 * SPEC 2: the terms-acceptance bar at the bottom of the dashboard. 'Aceitar' stays disabled until
 * the checkbox is ticked; the bar is hidden once accepted or when aceite_termo is 'aceito'.
 */
export function TermsBar() {
  const navigate = useNavigate();
  const [visible, setVisible] = useState(() => getTermsFlag() !== 'aceito');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);

  if (!visible) return null;

  const download = async () => {
    setBusy('download');
    try {
      await downloadCurrentTerms();
    } catch (error) {
      if (!sessionEnded(error)) toast.error(messages.terms.genericError);
    } finally {
      setBusy(null);
    }
  };

  const accept = async () => {
    setBusy('accept');
    try {
      await acceptTerms();
      setTermsFlag('aceito');
      setVisible(false);
      toast.success(messages.terms.accepted);
    } catch (error) {
      if (!sessionEnded(error)) toast.error(messages.terms.acceptFailed);
      setBusy(null);
    }
  };

  const reject = async () => {
    const confirmed = await confirmAction({
      title: 'Rejeitar os Termos de Uso?',
      message: 'Sem aceitar os Termos de Uso, o seu acesso ao portal fica restrito até que você os aceite.',
      confirmLabel: 'Rejeitar',
      danger: true,
    });
    if (!confirmed) return;
    setBusy('reject');
    try {
      await rejectTerms();
      await navigate('/blocked-access', { replace: true });
    } catch (error) {
      if (!sessionEnded(error)) toast.error(messages.terms.rejectFailed);
      setBusy(null);
    }
  };

  return (
    <Paper
      component="section"
      aria-label="Termos de Uso"
      shadow="lg"
      withBorder
      radius="lg"
      pos="sticky"
      bottom="calc(var(--mantine-spacing-xs) + env(safe-area-inset-bottom))"
      mt="xl"
      p="md"
      style={{ zIndex: 5, borderColor: 'var(--mantine-color-road-3)' }}
    >
        <Stack gap="xs">
          <Text fw={600}>
            Para continuar usando o portal, leia e aceite os Termos de Uso.
          </Text>
          <Anchor
            component="button"
            type="button"
            onClick={download}
            disabled={busy !== null}
            fw={600}
            py={6}
            style={{ alignSelf: 'flex-start', display: 'inline-flex', alignItems: 'center', gap: 6 }}
          >
            <IconFileDownload size={20} aria-hidden />
            {busy === 'download' ? 'Baixando os Termos de Uso...' : 'Ler os Termos de Uso'}
          </Anchor>
          <Checkbox
            label="Li e aceito os Termos de Uso"
            checked={agreed}
            onChange={(event) => setAgreed(event.currentTarget.checked)}
            disabled={busy === 'accept' || busy === 'reject'}
          />
          <Group grow gap="sm" wrap="wrap">
            <Button onClick={accept} disabled={!agreed || (busy !== null && busy !== 'accept')} loading={busy === 'accept'} miw={140}>
              Aceitar
            </Button>
            <Button
              variant="subtle"
              color="gray"
              c="dark"
              onClick={reject}
              disabled={busy !== null && busy !== 'reject'}
              loading={busy === 'reject'}
              miw={140}
            >
              Rejeitar
            </Button>
          </Group>
        </Stack>
    </Paper>
  );
}
