import { Button, Checkbox, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { FleetVehicle, Member } from '@portal/contract';
import { fleetScreens } from '@portal/domain';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { isListLoading, isListNotLoaded, TABLE_NOT_LOADED_TEXT } from '../../components/ui/DataTable';
import { ListPagination } from '../../components/ui/ListPagination';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { usePageParam } from '../../lib/usePageParam';
import { useAssignVehicle } from './api/mutations';
import { useFleetVehicles, useMembers } from './api/queries';
import { CompanyOnly } from './CompanyOnly';

const t = fleetScreens.vehicles;

/** 'João Souza (***.444.777-**)': the person, and the CPF that tells two of the same name apart. */
const driverLabel = (member: Member) => `${member.nome ?? fleetScreens.members.waitingSignup} (${member.cpf})`;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * One vehicle and its Motoristas: a box for each active member with the role Motorista (and for one
 * assigned before who no longer is, so they can be taken off), saved with 'Salvar'. Drawn anew when
 * the server's assignment changes (its key), which starts the boxes over from it.
 */
function VehicleDrivers({ vehicle, drivers, members }: { vehicle: FleetVehicle; drivers: readonly Member[]; members: readonly Member[] }) {
  const online = useOnline();
  const assign = useAssignVehicle();
  const titleId = useId();
  const saved = vehicle.motoristas.map(String);
  const [chosen, setChosen] = useState<string[]>(saved);
  const changed = !sameSet(chosen, saved);
  const stillAssigned = members.filter((member) => vehicle.motoristas.includes(member.id) && !drivers.includes(member));
  const options = [...drivers, ...stillAssigned];

  const save = () =>
    assign.mutate(
      { id: vehicle.id, motoristas: chosen.map(Number) },
      {
        onSuccess: (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE }),
        onError: (error) => toastFailure(error),
      },
    );

  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={titleId} data-vehicle={vehicle.placa}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId} className="tabular-nums">
          {vehicle.placa}
        </Title>
        {options.length === 0 ? (
          <Text size="sm" c="gray.7">
            {t.noDrivers}
          </Text>
        ) : (
          <Checkbox.Group label={t.drivers} value={chosen} onChange={setChosen}>
            <Stack gap="xs" mt="xs">
              {options.map((member) => (
                <Checkbox key={member.id} value={String(member.id)} label={driverLabel(member)} size="md" />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {options.length > 0 ? (
          <Button
            leftSection={<IconDeviceFloppy size={20} aria-hidden />}
            loading={assign.isPending}
            disabled={!changed || !online}
            aria-describedby={online ? undefined : OFFLINE_REASON_ID}
            aria-label={t.saveName(vehicle.placa)}
            w={{ base: '100%', xs: 'auto' }}
            onClick={save}
          >
            {t.save}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Loading() {
  return (
    <Stack gap="sm" role="status" aria-busy aria-label="Carregando">
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} height={140} radius="md" />
      ))}
    </Stack>
  );
}

/**
 * Decision 77 /empresa/veiculos: the company's vehicles, 20 a page, and for each the Motoristas
 * assigned (the active members with that role), saved per vehicle. A Motorista sees only the vehicles
 * assigned to them. Failures and offline as the other lists.
 */
export function FleetVehiclesPage() {
  usePageTitle(t.title);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t.title}</Title>
        <Text c="dimmed">{t.subtitle}</Text>
      </Stack>
      <CompanyOnly>
        <FleetVehicles />
      </CompanyOnly>
    </Stack>
  );
}

function FleetVehicles() {
  const [page, setPage] = usePageParam();
  const { vehicles, failure } = useFleetVehicles(page);
  const { members, failure: membersFailure } = useMembers();
  const loading = isListLoading(vehicles) || members.isPending;
  const rows = vehicles.data?.Veiculos;
  const everyone = members.data?.Membros ?? [];
  const drivers = everyone.filter((member) => member.estado === 'ativo' && member.papel === 'motorista');

  let body: ReactNode;
  if (isListNotLoaded(vehicles)) {
    body = (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {TABLE_NOT_LOADED_TEXT}
      </Text>
    );
  } else if (failure) body = <ReadFailed message={t.failed} retrying={failure.retrying} onRetry={failure.retry} />;
  else if (membersFailure && !members.data) {
    body = <ReadFailed message={fleetScreens.members.failed} retrying={membersFailure.retrying} onRetry={membersFailure.retry} />;
  } else if (loading || !rows) body = <Loading />;
  else if (rows.length === 0) {
    body = (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {t.empty}
      </Text>
    );
  } else {
    body = (
      <Stack gap="sm">
        {rows.map((vehicle) => (
          <VehicleDrivers key={`${vehicle.id}:${vehicle.motoristas.join(',')}`} vehicle={vehicle} drivers={drivers} members={everyone} />
        ))}
      </Stack>
    );
  }

  return (
    <>
      <OfflineNotice updatedAt={vehicles.dataUpdatedAt} />
      <div aria-live="polite" aria-busy={loading}>
        {body}
      </div>
      <ListPagination
        page={page}
        totalPages={failure ? 0 : (vehicles.data?.Paginacao.TotalPaginas ?? 0)}
        onPageChange={setPage}
        disabled={loading}
      />
    </>
  );
}
