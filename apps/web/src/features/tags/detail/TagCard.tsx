import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { VehicleTag } from '@portal/contract';
import { budgetScreens, formatSerial, messages, statusOf, vehicleBudgetMessages, type TagBadgeColor, type TagState } from '@portal/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import { TagStatusBadge } from '../../../components/ui/TagStatusBadge';
import { GreenpassWarning } from '../GreenpassWarning';
import { readableAlert } from '../../../components/ui/readableAlert';
import { DetailField } from './DetailField';

/** What each state means, in words a driver understands. */
const STATE_TEXT: Record<TagState, string> = {
  active: 'A tag está ativa e funciona nas praças de pedágio. A mensalidade é cobrada todo mês do seu saldo.',
  blocked: 'A tag está bloqueada e não passa nas praças de pedágio até ser liberada.',
  inactive: 'A tag ainda não foi ativada. Ative para começar a usar nas praças de pedágio.',
  cancelled: 'A tag foi cancelada e não pode mais ser usada. Você pode excluí-la deste veículo.',
};

const ALERT_COLOR: Record<TagBadgeColor, string> = { green: 'sign', red: 'red', yellow: 'yellow', gray: 'gray' };

/**
 * Decision 53 (Ofício Circular ANTT 117/2025): VPO costs the driver nothing on this tag. A calm note,
 * not an alert (nothing is wrong, nothing is announced): a tint, an icon and the text in body colour.
 */
function VpoFreeNote() {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" p="sm" bg="road.0" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
      <IconInfoCircle size={20} aria-hidden color="var(--mantine-color-road-8)" style={{ flexShrink: 0, marginTop: 1 }} />
      <Text size="sm" c="gray.9">
        {messages.tag.vpoFree}
      </Text>
    </Group>
  );
}

/** The tag on the vehicle: its status, serial and operator, what the status means and that VPO is free on it. */
export function TagCard({
  tag,
  operatorName,
  operatorsLoading,
}: {
  tag: VehicleTag;
  operatorName: string | null;
  operatorsLoading: boolean;
}) {
  const status = statusOf(tag.statusCode);
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="tag-titulo">
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} size="h3" id="tag-titulo">
            Tag
          </Title>
          <TagStatusBadge code={tag.statusCode} />
        </Group>
        <GreenpassWarning operatorName={operatorName} serial={tag.serialNumber} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm">
          <DetailField label={messages.tag.labels.serial} nowrap>
            <span data-testid="tag-serial">{formatSerial(tag.serialNumber)}</span>
          </DetailField>
          <DetailField label={messages.tag.labels.operator}>{operatorName ?? (operatorsLoading ? '...' : 'Desconhecida')}</DetailField>
        </SimpleGrid>
        <Alert
          styles={readableAlert}
          variant="light"
          color={ALERT_COLOR[status.color]}
          title={
            tag.bloqueioOrcamento
              ? vehicleBudgetMessages.blockedTitle
              : status.description === status.label
                ? `Tag ${status.label.toLowerCase()}`
                : status.description
          }
        >
          <Text size="sm">{tag.bloqueioOrcamento ? budgetScreens.tagBlocked : STATE_TEXT[status.state]}</Text>
        </Alert>
        {status.state === 'cancelled' ? null : <VpoFreeNote />}
      </Stack>
    </Paper>
  );
}
