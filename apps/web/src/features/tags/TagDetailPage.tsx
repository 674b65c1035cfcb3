import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { api, type VehicleDetail } from '@portal/contract';
import { IconArrowLeft, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { adoptEarlyVehicle } from '../../early-paint/adoptEarlyVehicle';
import { VEHICLE_VIEW_ATTRIBUTE } from '../../early-paint/vehicleMarkup';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useMayCall } from '../../lib/actingAccount';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useOperators, vehicleDetailQuery } from './api/queries';
import { operatorNameOf } from './catalog';
import { TagActions } from './detail/TagActions';
import { TagCard } from './detail/TagCard';
import { VehicleCard } from './detail/VehicleCard';
import { VehicleLoadFailure, VehicleLoading } from './vehicleStates';

// Before the prerendered page hydrates (main.tsx loads this module first): the vehicle its first
// script already painted (early-paint/scripts/boot.ts).
if (typeof document !== 'undefined') adoptEarlyVehicle();

/** Its form (masks, validation) loads when the driver opens it: not on the page's first load. */
const ReplaceTagModal = lazy(() => import('./detail/ReplaceTagModal').then((m) => ({ default: m.ReplaceTagModal })));

const backToTags = (
  <Button component={Link} to="/tags/listar" variant="subtle" px={0} w="fit-content" leftSection={<IconArrowLeft size={20} aria-hidden />}>
    Voltar para Tags
  </Button>
);

/** spec §2 /tags/detalhes/{licensePlate}: the vehicle, its tag and the tag's actions. */
export function TagDetailPage() {
  const plate = (useParams().licensePlate ?? '').toUpperCase();
  usePageTitle(`Tag do veículo ${plate}`);
  const detail = useQuery(vehicleDetailQuery(plate));

  let body: ReactNode;
  if (detail.isPending) body = <VehicleLoading />;
  else if (detail.isError)
    body = <VehicleLoadFailure error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />;
  else body = <VehicleView vehicle={detail.data.Dados} />;

  return (
    <FormPage width={720}>
      {backToTags}
      <Stack gap={4}>
        <Title order={1}>Veículo {plate}</Title>
        <Text c="dimmed">Dados do veículo e da tag instalada nele.</Text>
      </Stack>
      <OfflineNotice updatedAt={detail.dataUpdatedAt} />
      {body}
      {detail.isError ? backToTags : null}
    </FormPage>
  );
}

/** What the build cuts the first script's templates from (early-paint/build/vehicleTemplates.ts). */
const viewMarker = { [VEHICLE_VIEW_ATTRIBUTE]: '' };

function VehicleView({ vehicle }: { vehicle: VehicleDetail }) {
  const operators = useOperators();
  const [replacing, setReplacing] = useState(false);
  // Decision 77: the tag's actions for a role that may change tags (not a Motorista, not a Financeiro).
  const changes = useMayCall(api.blockTag, api.registerTag);
  const tag = vehicle.tag;
  const operatorName = tag ? operatorNameOf(operators.data?.Operadoras, tag.Operadora) : null;
  // One shape with or without a tag: React names its ids by place and count of siblings, and the
  // first script's templates share the vehicle's card between the two (early-paint/build/vehicleTemplates.ts).
  return (
    <Stack gap="lg" {...viewMarker}>
      <VehicleCard vehicle={vehicle} />
      {tag ? <TagCard tag={tag} operatorName={operatorName} operatorsLoading={operators.isPending} /> : <NoTagCard changes={changes} />}
      {tag && changes ? (
        <TagActions vehicle={vehicle} tag={tag} operatorName={operatorName} openReplace={() => setReplacing(true)} />
      ) : null}
      {tag && replacing ? (
        <Suspense fallback={null}>
          <ReplaceTagModal opened serialNumber={tag.serialNumber} onClose={() => setReplacing(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

function NoTagCard({ changes }: { changes: boolean }) {
  const online = useOnline();
  const look = { leftSection: <IconPlus size={20} aria-hidden />, fullWidth: true, maw: { sm: 320 } } as const;
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Tag
        </Title>
        <Text>Este veículo está sem tag. Cadastre uma tag para usar nas praças de pedágio.</Text>
        {!changes ? null : online ? (
          <Button {...look} component={Link} to="/tags/adicionar">
            Cadastrar Tag
          </Button>
        ) : (
          <Button {...look} disabled aria-describedby={OFFLINE_REASON_ID}>
            Cadastrar Tag
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
