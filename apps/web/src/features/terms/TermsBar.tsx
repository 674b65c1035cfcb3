import { Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconFileDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { toast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { observeHeight } from '../../lib/observeHeight';
import { useTermsPending, useTermsRefusals } from '../../lib/terms';
import { useAcceptTerms, useDownloadTerms, useRejectTerms } from './api/terms';
import classes from './TermsBar.module.css';

/** A 401 already sent the driver to /login: no extra toast then. */
function sessionEnded(error: unknown): boolean {
  return isApiError(error) && error.isUnauthorized;
}

/**
 * spec §2's terms-acceptance bar: 'Aceitar' stays disabled until the checkbox is ticked; the bar is
 * hidden once accepted or when aceite_termo is 'aceito'. Issue 25: held at the foot of every
 * signed-in screen (the shell draws it), not 1,000 px down the dashboard: where the driver is
 * stopped, the terms are read and accepted, and the screen goes on. Held over the page, not in its
 * flow: it appears once the app is live (a prerendered page knows no driver), and in the flow it
 * pushed the whole screen down under the driver's finger; a spacer of its height at the end of the
 * page keeps the last of the screen reachable above it. A refusal for the terms (lib/terms.ts) brings
 * the bar into view; once accepted, the driver is back at what they pressed.
 */
export function TermsBar() {
  // A prerendered page has no bar (the build knows no driver): it appears once hydrated.
  const visible = useTermsPending();
  const refusals = useTermsRefusals();
  const bar = useRef<HTMLElement>(null);
  /** What the driver pressed when the server refused it for the terms. */
  const pressed = useRef<HTMLElement | null>(null);

  /**
   * The last button or link of the screen (not the header's) the driver pressed outside the bar: a
   * pressed submit is disabled while it sends, so the focus is not it.
   */
  const lastPressed = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const note = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>('button, a[href]') : null;
      if (target?.closest('main') && !bar.current?.contains(target)) lastPressed.current = target;
    };
    document.addEventListener('click', note, true);
    return () => document.removeEventListener('click', note, true);
  }, []);

  useEffect(() => {
    if (refusals === 0 || !bar.current) return;
    pressed.current = lastPressed.current;
    bar.current.scrollIntoView({ block: 'nearest' });
    bar.current.focus({ preventScroll: true });
  }, [refusals]);

  useEffect(() => {
    if (visible) return;
    // Accepted: back to what the refused press was (the bar above it is gone), to press it again.
    const back = pressed.current;
    pressed.current = null;
    if (back?.isConnected) {
      back.scrollIntoView({ block: 'center' });
      back.focus({ preventScroll: true });
    }
  }, [visible]);

  // Drawn anew each time the terms wait: the box ticked for an earlier acceptance is not ticked now.
  return visible ? <TermsPanel barRef={bar} /> : null;
}

/** The bar's height, kept as it changes (a phone turned, a longer label): the spacer under the page. */
function useHeightOf(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    // Measured before the frame is painted (lib/observeHeight.ts): no moment with the page under the bar.
    return element ? observeHeight(element, setHeight) : undefined;
  }, [ref]);
  return height;
}

function TermsPanel({ barRef }: { barRef: RefObject<HTMLElement | null> }) {
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const download = useDownloadTerms();
  const accept = useAcceptTerms();
  const reject = useRejectTerms();
  const online = useOnline();
  const spacer = useHeightOf(barRef);
  const busy = download.isPending || accept.isPending || reject.isPending;
  // Founding decision 22: the terms are read, accepted and rejected on the server; offline the dashboard says why not.
  const offline = online ? {} : { 'aria-describedby': OFFLINE_REASON_ID };

  const onDownload = () =>
    download.mutate(undefined, {
      onError: (error) => {
        if (!sessionEnded(error)) toast.error(messages.terms.genericError);
      },
    });

  // Awaited, not mutate's callbacks: the acceptance hides this panel (lib/terms.ts), and an
  // unmounted observer's callbacks never run.
  const onAccept = async () => {
    try {
      await accept.mutateAsync();
      toast.success(messages.terms.accepted);
    } catch (error) {
      if (!sessionEnded(error)) toast.error(messages.terms.acceptFailed);
    }
  };

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
    <>
      <div aria-hidden style={{ height: spacer }} />
      <Paper
        ref={barRef}
        component="section"
        aria-label="Termos de Uso"
        tabIndex={-1}
        shadow="lg"
        withBorder
        px="sm"
        py={6}
        className={classes.bar}
      >
        {/* Issue 33: two rows, at most about 120 px of a 740 px phone (it took 240 and hid the tiles). */}
        <Stack gap={4} className={classes.content}>
          <Group gap="xs" wrap="nowrap" justify="space-between" mih={44}>
            <Text size="sm" fw={600} lh={1.3}>
              {messages.terms.pending}
            </Text>
            <Button
              variant="light"
              size="sm"
              px="sm"
              onClick={onDownload}
              disabled={busy || !online}
              loading={download.isPending}
              {...offline}
              leftSection={<IconFileDownload size={20} aria-hidden />}
              aria-label="Ler os Termos de Uso"
              style={{ flexShrink: 0 }}
            >
              Ler
            </Button>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {/* 'Li e aceito' on screen, the whole sentence for a screen reader (the name contains the label). */}
            <Checkbox
              label="Li e aceito"
              aria-label="Li e aceito os Termos de Uso"
              checked={agreed}
              onChange={(event) => setAgreed(event.currentTarget.checked)}
              disabled={accept.isPending || reject.isPending}
              style={{ flexShrink: 0 }}
            />
            <Group grow gap="xs" wrap="nowrap" style={{ flex: 1 }}>
              <Button
                size="sm"
                px="xs"
                onClick={() => void onAccept()}
                disabled={!agreed || !online || (busy && !accept.isPending)}
                loading={accept.isPending}
                {...offline}
              >
                Aceitar
              </Button>
              <Button
                size="sm"
                px="xs"
                variant="subtle"
                color="gray"
                c="dark"
                onClick={() => void onReject()}
                disabled={!online || (busy && !reject.isPending)}
                loading={reject.isPending}
                {...offline}
              >
                Rejeitar
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
