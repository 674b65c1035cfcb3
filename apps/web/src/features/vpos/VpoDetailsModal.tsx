import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { PassageContestInfo, Vpo, VpoPassage } from '@portal/contract';
import { formatCpfCnpj, formatSerial, messages, vpoRoute, vpoStatusLabel } from '@portal/domain';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { DateTime } from '../../components/ui/DateTime';
import { Dialog } from '../../components/ui/Dialog';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { Money } from '../../components/ui/Money';
import { PassageContest } from '../../components/ui/PassageContest';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { VpoPayerBadge } from '../../components/ui/VpoPayerBadge';
import { errorMessage } from '../../lib/errors';
import { isApiError } from '../../lib/http';
import { OFFLINE_REASON, OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useVpoPdf, vpoDetailsQuery } from './api/queries';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import classes from './VpoDetailsModal.module.css';

const { fields } = messages.vpo;

/** What a field the shipper did not give shows. */
const MISSING = '—';

/** A field of the VPO; `warning`: what Saldo paid for the VPO, with its icon. */
function Field({
  label,
  children,
  wide = false,
  warning = false,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
  warning?: boolean;
}) {
  return (
    <DetailField
      wide={wide}
      tone={warning ? 'warning' : undefined}
      label={
        <>
          {warning ? <IconAlertTriangle size={18} aria-hidden color="var(--mantine-color-orange-9)" style={{ flexShrink: 0 }} /> : null}
          {label}
        </>
      }
    >
      {children}
    </DetailField>
  );
}

/** 'DD/MM/YYYY HH:mm:ss a DD/MM/YYYY HH:mm:ss'; a VPO issued before its money was held has no window. */
function TripWindow({ start, end }: { start: string | null; end: string | null }) {
  if (start === null && end === null) return <>{MISSING}</>;
  return (
    <span className={classes.trip}>
      <DateTime value={start} /> {messages.vpo.tripUntil} <DateTime value={end} />
    </span>
  );
}

/** The six fields of spec §2, then the trip and its money (decision 52). */
function VpoFields({ vpo }: { vpo: Vpo }) {
  return (
    <DetailList>
      <Field label={fields.serialNumber}>
        <span className={`tabular-nums ${classes.nowrap}`}>{formatSerial(vpo.serialNumber)}</span>
      </Field>
      <Field label={fields.plate}>{vpo.PlacaVeiculo}</Field>
      <Field label={fields.shipper}>
        <span className={`tabular-nums ${classes.nowrap}`}>{formatCpfCnpj(vpo.CpfCnpjEmbarcador)}</span>
      </Field>
      <Field label={fields.shipperName}>{vpo.Embarcador || MISSING}</Field>
      <Field label={fields.value}>
        <Money reais={vpo.ValorTotalVP} />
      </Field>
      <Field label={fields.date}>
        <DateTime value={vpo.created_at} />
      </Field>
      <Field label={fields.status}>{vpoStatusLabel(vpo.Status)}</Field>
      <Field label={fields.axles}>{vpo.eixos === null ? MISSING : messages.vpo.axlesValue.replace('{n}', String(vpo.eixos))}</Field>
      <Field label={fields.route} wide>
        {vpoRoute(vpo.origem, vpo.destino)}
      </Field>
      <Field label={fields.trip} wide>
        <TripWindow start={vpo.inicioViagem} end={vpo.fimViagem} />
      </Field>
      <Field label={fields.anttId}>{vpo.idVpoAntt ?? MISSING}</Field>
      <Field label={fields.rntrc}>
        <span className="tabular-nums">{vpo.rntrc ?? MISSING}</span>
      </Field>
      <Field label={fields.used}>
        <Money reais={vpo.Utilizado} />
      </Field>
      <Field label={fields.left}>
        <Money reais={vpo.Restante} />
      </Field>
      <Field label={fields.refunded}>
        <Money reais={vpo.Devolvido} />
      </Field>
      {vpo.PagoPeloSaldo > 0 ? (
        <Field label={fields.fromSaldo} warning>
          <Money reais={vpo.PagoPeloSaldo} />
        </Field>
      ) : null}
    </DetailList>
  );
}

/**
 * Decision 56: each passage's contest, drawn once under its last payment (a passage the VPO could
 * not pay whole is two payments of one passage), with what the passage charged in all.
 */
function passageContests(passages: readonly VpoPassage[]): ({ info: PassageContestInfo; value: number } | null)[] {
  return passages.map((passage, index) => {
    const info = passage.passagem;
    if (!info) return null;
    const parts = passages.filter((other) => other.passagem?.id === info.id);
    if (passages.slice(index + 1).some((other) => other.passagem?.id === info.id)) return null;
    return { info, value: parts.reduce((sum, part) => sum + Math.round(part.value * 100), 0) / 100 };
  });
}

function PassageList({ passages }: { passages: readonly VpoPassage[] }) {
  if (passages.length === 0) {
    return (
      <Text size="sm" c="gray.7">
        {messages.vpo.passagesEmpty}
      </Text>
    );
  }
  const contests = passageContests(passages);
  return (
    <ul className={classes.passages}>
      {passages.map((passage, index) => {
        const contest = contests[index];
        return (
          // A passage the VPO could not pay whole is two payments with one place and time: the index tells them apart.
          <li key={`${passage.occurredAt}:${passage.pagoPor}:${index}`} className={classes.passage} data-paid-by={passage.pagoPor}>
            <Text component="span" fw={600} className={classes.place}>
              {passage.placeName}
            </Text>
            <Money reais={passage.value} fw={700} style={{ whiteSpace: 'nowrap' }} />
            <Text component="span" size="sm" c="gray.7">
              <DateTime value={passage.occurredAt} />
            </Text>
            <span className={classes.payer}>
              <VpoPayerBadge pagoPor={passage.pagoPor} />
              {contest ? (
                <PassageContest
                  info={contest.info}
                  passage={{ praca: passage.placeName, dataPassagem: passage.occurredAt, valor: contest.value }}
                  align="start"
                />
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

type DetailsRead = ReturnType<typeof useVpoDetails>;

/** 'Passagens da viagem': loading, the passages with who paid each, or the failure with 'Tentar novamente'. */
function Passages({ details }: { details: DetailsRead }) {
  const titleId = useId();
  let body: ReactNode;
  if (details.vpo) body = <PassageList passages={details.vpo.Passagens} />;
  else if (details.failed) {
    body = <ReadFailed message={messages.vpo.detailsFailed} retrying={details.retrying} onRetry={details.retry} />;
  } else if (details.paused) {
    // No signal and never seen on this phone: the read waits for the connection.
    body = (
      <Text size="sm" c="gray.7" role="status">
        {OFFLINE_REASON}
      </Text>
    );
  } else {
    body = (
      <Group gap="xs" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="gray.7">
          {messages.vpo.passagesLoading}
        </Text>
      </Group>
    );
  }
  return (
    <Stack component="section" gap="xs" aria-labelledby={titleId} aria-busy={details.loading}>
      <Title order={3} size="h4" id={titleId}>
        {messages.vpo.passagesTitle}
      </Title>
      {body}
    </Stack>
  );
}

/** A long label wraps instead of being cut at 360 px. */
const wrapStyles = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 8 },
  label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 },
} as const;

/** 'Baixar registro do VPO (PDF)': saved under the server's name; needs the network (disabled offline, saying why). */
function RecordPdfButton({ id }: { id: string }) {
  const online = useOnline();
  const pdf = useVpoPdf();
  const download = () =>
    pdf.mutate(id, {
      onError: (error) => {
        // A 401 is already on its way to /login.
        if (isApiError(error) && error.isUnauthorized) return;
        toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE });
      },
    });
  return (
    <Button
      size="md"
      fullWidth
      variant="light"
      px="sm"
      styles={wrapStyles}
      leftSection={<IconDownload size={20} aria-hidden />}
      loading={pdf.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      onClick={download}
    >
      {messages.vpo.exportPdf}
    </Button>
  );
}

/**
 * The VPO as it is now (GET /api/pedagio/motoristaVpos/:id) with its trip's passages; until it
 * answers, or when it fails, the row of the list. An answer with Sucesso false is a failure.
 */
function useVpoDetails(listed: Vpo) {
  const read = useQuery(vpoDetailsQuery(listed.IdTransacao));
  const answer = read.data?.Sucesso === false ? undefined : read.data?.VPO;
  const failed = answer === undefined && (read.isError || read.data?.Sucesso === false);
  return {
    vpo: answer,
    failed,
    loading: read.isPending && !read.isPaused,
    paused: read.isPending && read.isPaused,
    retrying: read.isFetching,
    retry: () => void read.refetch(),
  };
}

function VpoDetailsBody({ listed, onClose }: { listed: Vpo; onClose: () => void }) {
  const details = useVpoDetails(listed);
  return (
    <Stack gap="lg">
      <VpoFields vpo={details.vpo ?? listed} />
      <Passages details={details} />
      <Stack gap="sm">
        <RecordPdfButton id={listed.IdTransacao} />
        <Button size="md" fullWidth onClick={onClose} data-autofocus>
          {messages.vpo.close}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * spec §2 'Detalhes do VPO': read-only; the six fields of the VPO and 'Fechar'. Decision 52 adds the
 * shipper's name, the route and the trip's window, the VPO's money (used, left, given back, and what
 * your Saldo paid when it ran short, highlighted), its ANTT identifiers, the passages of the trip
 * with who paid each, and its record as a PDF.
 */
export function VpoDetailsModal({ vpo, opened, onClose }: { vpo: Vpo | null; opened: boolean; onClose: () => void }) {
  return (
    <Dialog
      opened={opened && vpo !== null}
      onClose={onClose}
      title={messages.vpo.detailsTitle}
      centered
      size={600}
      closeButtonProps={{ 'aria-label': 'Fechar detalhes do VPO' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {/* Drawn only while open (the modal leaves its content out when closed): the passages are asked for then. */}
      {vpo ? <VpoDetailsBody key={vpo.IdTransacao} listed={vpo} onClose={onClose} /> : null}
    </Dialog>
  );
}
