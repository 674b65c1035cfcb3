import { Alert, Button, Container, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ProofFacts } from '@portal/contract';
import { proofMessages } from '@portal/domain';
import { IconAlertCircle, IconCircleCheck, IconHome, IconShieldCheck, IconWifiOff } from '@tabler/icons-react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { DateTime } from '../../components/ui/DateTime';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import { Money } from '../../components/ui/Money';
import { readableAlert } from '../../components/ui/readableAlert';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { freeFlowTexts as t } from '../../lib/freeFlowTexts';
import { isApiError } from '../../lib/http';
import { useOnline } from '../../lib/offline';
import { queryClient } from '../../lib/queryClient';
import { proofVerifyQuery } from './api/queries';

const l = proofMessages.labels;

/** The proof's facts, as the PDF states them (the domain's labels): a traffic authority compares one with the other. */
function Facts({ facts }: { facts: ProofFacts }) {
  const { tag, pagamento } = facts;
  return (
    <Stack gap="md">
      <Alert
        role="status"
        color="green"
        variant="light"
        radius="md"
        icon={<IconCircleCheck aria-hidden />}
        title={proofMessages.verified}
        styles={readableAlert}
      >
        <Text size="sm" c="dark.7" style={{ overflowWrap: 'anywhere' }}>
          {l.code}: <strong className="tabular-nums">{facts.codigo}</strong>
        </Text>
      </Alert>
      <DetailList>
        <DetailField label={l.kind}>{proofMessages.kinds[facts.tipo]}</DetailField>
        <DetailField label={l.plate}>{facts.placa}</DetailField>
        <DetailField label={l.holder}>{facts.titular}</DetailField>
        <DetailField label={l.document}>
          <span className="tabular-nums">{facts.documentoMascarado}</span>
        </DetailField>
        <DetailField label={l.moment}>
          <DateTime value={facts.momento} />
        </DetailField>
        <DetailField label={l.place} wide>
          {facts.local}
        </DetailField>
        <DetailField label={l.value}>
          <Money reais={facts.valor} />
        </DetailField>
        <DetailField label={l.balanceThen}>
          <Money reais={facts.saldoNoMomento} />
        </DetailField>
        {tag ? (
          <>
            <DetailField label={l.tag}>
              <span className="tabular-nums">{tag.serialNumber}</span>
            </DetailField>
            <DetailField label={l.operator}>{tag.operadora}</DetailField>
            <DetailField label={l.activeSince}>
              <DateTime value={tag.ativaDesde} fallback={proofMessages.never} />
            </DetailField>
            <DetailField label={l.activeThen}>{tag.ativaNoMomento ? proofMessages.yes : proofMessages.no}</DetailField>
          </>
        ) : (
          <DetailField label={l.tag}>{proofMessages.noTag}</DetailField>
        )}
        {pagamento ? (
          <>
            <DetailField label={l.paidAt}>
              <DateTime value={pagamento.pagoEm} />
            </DetailField>
            <DetailField label={l.paidBy}>{pagamento.pagoPor}</DetailField>
            {pagamento.autenticacao ? (
              <DetailField label={l.authentication} wide>
                <span className="tabular-nums">{pagamento.autenticacao}</span>
              </DetailField>
            ) : null}
          </>
        ) : (
          <DetailField label={l.paidBy}>{proofMessages.notPaidByPortal}</DetailField>
        )}
        <DetailField label={l.issuedAt}>
          <DateTime value={facts.emitidoEm} />
        </DetailField>
      </DetailList>
    </Stack>
  );
}

/** The code is not one the portal issued, or the proof was changed: the portal does not know it. */
function NotFound() {
  return (
    <Alert
      color="red"
      variant="light"
      radius="md"
      role="alert"
      icon={<IconAlertCircle aria-hidden />}
      title={proofMessages.notFound}
      styles={readableAlert}
    >
      <Text size="sm" c="dark.7">
        {t.verifyNotFoundBody}
      </Text>
    </Alert>
  );
}

function Verification({ codigo }: { codigo: string }) {
  const online = useOnline();
  const proof = useQuery(proofVerifyQuery(codigo));
  const facts = proof.data?.Sucesso ? proof.data.Comprovante : undefined;
  if (facts) return <Facts facts={facts} />;
  if (isApiError(proof.error) && (proof.error.status === 404 || proof.error.status === 422)) return <NotFound />;
  if (proof.isError || proof.data?.Sucesso === false) {
    return <ReadFailed message={t.verifyFailed} retrying={proof.isFetching} onRetry={() => void proof.refetch()} />;
  }
  if (!online) {
    return (
      <Group gap="xs" wrap="nowrap" role="status">
        <IconWifiOff size={20} aria-hidden style={{ flexShrink: 0 }} />
        <Text>{t.verifyOffline}</Text>
      </Group>
    );
  }
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden />
      <Text>{t.verifyLoading}</Text>
    </Group>
  );
}

/**
 * Decision 76 /verificar/:codigo: public (no session): whoever holds a proof for an appeal (a traffic
 * authority reading its QR Code) sees the facts the portal keeps under its code, the document masked;
 * a code the portal did not issue says 'Comprovante não encontrado: o código não confere'.
 */
export function VerifyProofPage() {
  usePageTitle(t.verifyTitle);
  const codigo = useParams().codigo ?? '';
  return (
    <Container size={680} px="md" py="lg" component="main">
      <Stack gap="md">
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="lg">
          <Stack gap="lg">
            <Stack gap="sm">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={44} radius="xl" aria-hidden>
                  <IconShieldCheck size={26} />
                </ThemeIcon>
                <Title order={1}>{t.verifyTitle}</Title>
              </Group>
              <Text>{t.verifyIntro}</Text>
            </Stack>
            {codigo.trim() ? (
              // Outside the shell: this provider resumes the read paused offline when the signal returns.
              <QueryClientProvider client={queryClient}>
                <Verification codigo={codigo} />
              </QueryClientProvider>
            ) : (
              <NotFound />
            )}
          </Stack>
        </Paper>
        <Group>
          <Button component={Link} to="/login" variant="subtle" size="sm" leftSection={<IconHome size={18} aria-hidden />}>
            {t.verifyHome}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
