import { Alert, Badge, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Receipt, ReceiptParty } from '@portal/contract';
import { formatDateTime, messages } from '@portal/domain';
import { IconAlertTriangle, IconTruck } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import classes from './ReceiptPage.module.css';

const labels = messages.receipt.labels;

const statusColors: Record<Receipt['status'], string> = {
  RECEIVED: 'sign',
  DONE: 'sign',
  PROCESSING: 'road',
  REFUNDED: 'yellow',
  PARTIALLY_REFUNDED: 'yellow',
  FAILED: 'yellow',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** `holder`: a withdrawal's receiver, named only as the provider reported the key's holder. */
function Party({ title, party, holder = false }: { title: string; party: ReceiptParty; holder?: boolean }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb={6}>
        {title}
      </Title>
      <dl className={classes.fields}>
        <Field label={holder ? labels.holder : labels.name}>{party.nome ?? messages.receipt.holderUnavailable}</Field>
        {party.documento ? <Field label={labels.document}>{party.documento}</Field> : null}
        {party.chavePix ? (
          <Field label={party.tipoChave ? `${labels.pixKey} (${party.tipoChave})` : labels.pixKey}>{party.chavePix}</Field>
        ) : null}
      </dl>
    </section>
  );
}

/** What stands out: a reversed withdrawal (the money came back) or a refunded purchase. */
function Notice({ receipt }: { receipt: Receipt }) {
  if (receipt.status === 'FAILED') {
    return (
      <Alert className={classes.notice} color="yellow" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
        <Text fw={700}>{messages.receipt.reversedNotice}</Text>
        {receipt.motivo ? (
          <Text size="sm" mt={4}>
            {labels.reason}: {receipt.motivo}
          </Text>
        ) : null}
      </Alert>
    );
  }
  if (receipt.status === 'REFUNDED' || receipt.status === 'PARTIALLY_REFUNDED') {
    return (
      <Alert className={classes.notice} color="yellow" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
        <Text fw={700}>{receipt.statusTexto}</Text>
        <Text size="sm" mt={4}>
          {labels.returned}: <Money reais={receipt.valorDevolvido} fw={600} />
        </Text>
      </Alert>
    );
  }
  return null;
}

/**
 * Issue 12: the receipt of a Pix purchase or withdrawal, as a document: the portal's name, the
 * title, the value big, date and time, status, payer and receiver (the Pix key masked as banks
 * do), the provider and its transaction id, our id, description. The same on screen and on paper.
 */
export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const titleId = useId();
  const [issuedAt] = useState(() => formatDateTime(new Date()));
  return (
    <Paper
      component="article"
      aria-labelledby={titleId}
      className={classes.receipt}
      withBorder
      shadow="xs"
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap={6} c="road.8" wrap="nowrap">
            <IconTruck size={20} aria-hidden />
            <Text fw={800}>{messages.receipt.portal}</Text>
          </Group>
          <Title order={1} id={titleId} size="h2">
            {receipt.titulo}
          </Title>
        </Stack>

        <Notice receipt={receipt} />

        <Stack gap={4}>
          <Text size="sm" fw={600} c="gray.7">
            {labels.value}
          </Text>
          <Money reais={receipt.valor} fz="calc(2.25rem * var(--mantine-scale))" fw={800} lh={1.1} data-testid="valor-comprovante" />
          <Group gap="xs">
            <Text size="sm" fw={600} c="gray.7" component="span">
              {labels.status}:
            </Text>
            <Badge color={statusColors[receipt.status]} variant="light" size="lg" tt="none" data-testid="situacao-comprovante">
              {receipt.statusTexto}
            </Badge>
          </Group>
        </Stack>

        <dl className={classes.fields}>
          <Field label={labels.dateTime}>
            <DateTime value={receipt.dataHora} />
          </Field>
          {receipt.concluidoEm ? (
            <Field label={labels.completedAt}>
              <DateTime value={receipt.concluidoEm} />
            </Field>
          ) : null}
          {receipt.valorDevolvido > 0 && receipt.status !== 'FAILED' ? (
            <Field label={labels.returned}>
              <Money reais={receipt.valorDevolvido} />
            </Field>
          ) : null}
          {receipt.descricao ? <Field label={labels.description}>{receipt.descricao}</Field> : null}
        </dl>

        <Divider />
        <Party title={labels.payer} party={receipt.pagador} />
        <Divider />
        <Party title={labels.receiver} party={receipt.recebedor} holder={receipt.tipo === 'saque'} />
        <Divider />

        <dl className={classes.fields}>
          <Field label={labels.provider}>{receipt.provedor}</Field>
          <Field label={labels.providerId}>
            <span className={classes.code}>{receipt.idTransacaoProvedor ?? 'Ainda não informado pelo provedor'}</span>
          </Field>
          <Field label={labels.ourId}>
            <span className={classes.code}>{receipt.id}</span>
          </Field>
        </dl>

        <Text size="xs" c="gray.7">
          {messages.pdf.generatedAt(issuedAt)}
        </Text>
      </Stack>
    </Paper>
  );
}
