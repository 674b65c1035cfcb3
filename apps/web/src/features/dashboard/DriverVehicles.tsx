import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { fleetScreens, messages } from '@portal/domain';
import { Link } from 'react-router';
import { isListNotLoaded, TABLE_NOT_LOADED_TEXT } from '../../components/ui/DataTable';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { TagStatusBadge } from '../../components/ui/TagStatusBadge';
import { useFirstVehicles } from './api/vehicles';

const t = fleetScreens.driverVehicles;

/**
 * Decision 77: a Motorista's vehicles (the first page the server gives them: only the ones assigned
 * to them), each with its tag's state and a link to its detail, and 'Ver todos'.
 */
export function DriverVehicles() {
  const { vehicles, failure } = useFirstVehicles();
  const rows = vehicles.data?.Veiculos;
  let body;
  if (isListNotLoaded(vehicles)) {
    body = (
      <Text c="gray.7" role="status">
        {TABLE_NOT_LOADED_TEXT}
      </Text>
    );
  } else if (failure && !rows)
    body = <ReadFailed message={messages.readFailed.vehicles} retrying={failure.retrying} onRetry={failure.retry} />;
  else if (!rows) body = <Skeleton height={96} radius="md" />;
  else if (rows.length === 0) {
    body = (
      <Text c="gray.7" role="status">
        {t.empty}
      </Text>
    );
  } else {
    body = (
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {rows.map((row) => (
          <Group component="li" key={row.id} justify="space-between" gap="xs" wrap="wrap" mih={44}>
            <Anchor
              component={Link}
              to={`/tags/detalhes/${row.LicensePlate}`}
              fw={700}
              aria-label={`Veículo ${row.LicensePlate}: ver detalhes`}
            >
              {row.LicensePlate}
            </Anchor>
            <TagStatusBadge code={row.Status} noTag={row.tag === null} />
          </Group>
        ))}
      </Stack>
    );
  }
  return (
    <>
      <OfflineNotice updatedAt={vehicles.dataUpdatedAt} actions={false} />
      <Paper component="section" aria-labelledby="seus-veiculos" withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
        <Stack gap="sm">
          <Group justify="space-between" align="center" gap="xs">
            <Title order={2} size="h3" id="seus-veiculos">
              {t.title}
            </Title>
            <Anchor component={Link} to="/veiculos/listar" fw={600}>
              {t.seeAll}
            </Anchor>
          </Group>
          <div aria-live="polite" aria-busy={!rows && !failure}>
            {body}
          </div>
        </Stack>
      </Paper>
    </>
  );
}
