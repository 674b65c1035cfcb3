import { Anchor, Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconFileDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { toast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { getTermsFlag } from '../../lib/storage';
import { useStoredValue } from '../../lib/useStoredValue';
import { useAcceptTerms, useDownloadTerms, useRejectTerms } from './api/terms';

/** A 401 already sent the driver to /login: no extra toast then. */
function sessionEnded(error: unknown): boolean {
  return isApiError(error) && error.isUnauthorized;
}

/**
 * spec §2: the terms-acceptance bar at the bottom of the dashboard. 'Aceitar' stays disabled until
 * the checkbox is ticked; the bar is hidden once accepted or when aceite_termo is 'aceito'.
 * It sits in the page's flow, after the tiles: on a phone it never covers them.
 */
export function TermsBar() {
  const navigate = useNavigate();
  // The prerendered dashboard has no bar (the build knows no driver); it appears after hydration,
  // below everything else, when the phone has no acceptance.
  const pending = useStoredValue(() => getTermsFlag() !== 'aceito', false);
  const [accepted, setAccepted] = useState(false);
  const visible = pending && !accepted;
  const [agreed, setAgreed] = useState(false);
  const download = useDownloadTerms();
  const accept = useAcceptTerms();
  const reject = useRejectTerms();
  const online = useOnline();

  if (!visible) return null;

  const busy = download.isPending || accept.isPending || reject.isPending;
  // Founding decision 22: the terms are read, accepted and rejected on the server; offline the dashboard says why not.
  const offline = online ? {} : { 'aria-describedby': OFFLINE_REASON_ID };

  const onDownload = () =>
    download.mutate(undefined, {
      onError: (error) => {
        if (!sessionEnded(error)) toast.error(messages.terms.genericError);
      },
    });

  const onAccept = () =>
    accept.mutate(undefined, {
      onSuccess: () => {
        setAccepted(true);
        toast.success(messages.terms.accepted);
      },
      onError: (error) => {
        if (!sessionEnded(error)) toast.error(messages.terms.acceptFailed);
      },
    });

  const onReject = async () => {
    const confirmed = await confirmAction({
      title: 'Rejeitar os Termos de Uso?',
      message: 'Sem aceitar os Termos de Uso, o seu acesso ao portal fica restrito até que você os aceite.',
      confirmLabel: 'Rejeitar',
      danger: true,
    });
    if (!confirmed) return;
    reject.mutate(undefined, {
      onSuccess: () => void navigate('/blocked-access', { replace: true }),
      onError: (error) => {
        if (!sessionEnded(error)) toast.error(messages.terms.rejectFailed);
      },
    });
  };

  return (
    <Paper
      component="section"
      aria-label="Termos de Uso"
      shadow="sm"
      withBorder
      radius="lg"
      mt="xl"
      p="md"
      style={{ borderColor: 'var(--mantine-color-road-3)' }}
    >
      <Stack gap="xs">
        <Text fw={600}>Para continuar usando o portal, leia e aceite os Termos de Uso.</Text>
        <Anchor
          component="button"
          type="button"
          onClick={onDownload}
          disabled={busy || !online}
          {...offline}
          fw={600}
          py={6}
          style={{ alignSelf: 'flex-start', display: 'inline-flex', alignItems: 'center', gap: 6 }}
        >
          <IconFileDownload size={20} aria-hidden />
          {download.isPending ? 'Baixando os Termos de Uso...' : 'Ler os Termos de Uso'}
        </Anchor>
        <Checkbox
          label="Li e aceito os Termos de Uso"
          checked={agreed}
          onChange={(event) => setAgreed(event.currentTarget.checked)}
          disabled={accept.isPending || reject.isPending}
        />
        <Group grow gap="sm" wrap="wrap">
          <Button
            onClick={onAccept}
            disabled={!agreed || !online || (busy && !accept.isPending)}
            loading={accept.isPending}
            miw={140}
            {...offline}
          >
            Aceitar
          </Button>
          <Button
            variant="subtle"
            color="gray"
            c="dark"
            onClick={() => void onReject()}
            disabled={!online || (busy && !reject.isPending)}
            loading={reject.isPending}
            miw={140}
            {...offline}
          >
            Rejeitar
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
