import { Button, Checkbox, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { CostCentre, FleetVehicle, Member } from '@portal/contract';
import { fleetScreens } from '@portal/domain';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { CardList } from '../../components/ui/CardList';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { ListPagination } from '../../components/ui/ListPagination';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastAnswer, toastFailure } from '../../components/ui/toastFailure';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { usePageParam } from '../../lib/usePageParam';
import { useAssignVehicle, useSetVehicleCostCentre } from './api/mutations';
import { useCostCentres, useFleetVehicles, useMembers } from './api/queries';
import { CompanyPage } from './CompanyOnly';

const t = fleetScreens.vehicles;

/** 'João Souza (***.444.777-**)': the person, and the CPF that tells two of the same name apart. */
const driverLabel = (member: Member) => `${member.nome ?? fleetScreens.members.waitingSignup} (${member.cpf})`;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The company's cost centres, as the vehicles' selects offer them: undefined until read; `failed` while the read fails. */
interface Centres {
  list: readonly CostCentre[] | undefined;
  failed: boolean;
}

/**
 * The vehicle's cost centre ('Sem centro de custo' or 'CÓDIGO · Nome'), sent as soon as another is
 * chosen; the server's Mensagem in a toast. The choice shows until the list read again says it.
 */
function VehicleCostCentre({ vehicle, centres }: { vehicle: FleetVehicle; centres: Centres }) {
  const online = useOnline();
  const move = useSetVehicleCostCentre();
  const [asked, setAsked] = useState<string | null>(null);
  const saved = vehicle.centroDeCusto === null ? '' : String(vehicle.centroDeCusto);
  const options = [
    { value: '', label: t.noCostCentre },
    ...(centres.list ?? []).map((centre) => ({ value: String(centre.id), label: t.costCentreOption(centre.codigo, centre.nome) })),
  ];

  const choose = (value: string) => {
    if (value === saved) return;
    setAsked(value);
    // As 'Salvar' below: the answer may redraw this vehicle before mutate's own callbacks would run.
    void toastAnswer(move.mutateAsync({ id: vehicle.id, centroDeCusto: value === '' ? null : Number(value) })).finally(() =>
      setAsked(null),
    );
  };

  return (
    <NativeSelect
      size="md"
      label={t.costCentre}
      data={options}
      value={asked ?? saved}
      disabled={!online || move.isPending || !centres.list}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      description={centres.failed && !centres.list ? t.costCentresFailed : undefined}
      maw={{ sm: 420 }}
      onChange={(event) => choose(event.currentTarget.value)}
    />
  );
}

/**
 * One vehicle, its cost centre and its Motoristas: a box for each active member with the role
 * Motorista (and for one assigned before who no longer is, so they can be taken off), saved with
 * 'Salvar'. Drawn anew when the server's assignment changes (its key), which starts the boxes over
 * from it.
 */
function VehicleDrivers({
  vehicle,
  drivers,
  members,
  centres,
}: {
  vehicle: FleetVehicle;
  drivers: readonly Member[];
  members: readonly Member[];
  centres: Centres;
}) {
  const online = useOnline();
  const assign = useAssignVehicle();
  const titleId = useId();
  const saved = vehicle.motoristas.map(String);
  const [chosen, setChosen] = useState<string[]>(saved);
  const changed = !sameSet(chosen, saved);
  const stillAssigned = members.filter((member) => vehicle.motoristas.includes(member.id) && !drivers.includes(member));
  const options = [...drivers, ...stillAssigned];

  // The saved answer redraws this vehicle (its key changes) before mutate's own callbacks would run,
  // and an unmounted observer's callbacks never do: the promise tells the driver either way.
  const save = () =>
    assign.mutateAsync({ id: vehicle.id, motoristas: chosen.map(Number) }).then(
      (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE }),
      (error: unknown) => toastFailure(error),
    );

  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={titleId} data-vehicle={vehicle.placa}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId} className="tabular-nums">
          {vehicle.placa}
        </Title>
        <VehicleCostCentre vehicle={vehicle} centres={centres} />
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
            onClick={() => void save()}
          >
            {t.save}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * Decision 77 /empresa/veiculos: the company's vehicles, 20 a page, and for each the Motoristas
 * assigned (the active members with that role), saved per vehicle, and its cost centre. A Motorista sees only the vehicles
 * assigned to them. Failures and offline as the other lists.
 */
export function FleetVehiclesPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle}>
      <FleetVehicles />
    </CompanyPage>
  );
}

function FleetVehicles() {
  const [page, setPage] = usePageParam();
  const { vehicles, failure } = useFleetVehicles(page);
  const { members, failure: membersFailure } = useMembers();
  const { centres } = useCostCentres();
  const centreList: Centres = { list: centres.data?.Centros, failed: centres.isError };
  const loading = isListLoading(vehicles) || members.isPending;
  const rows = vehicles.data?.Veiculos;
  const everyone = members.data?.Membros ?? [];
  const drivers = everyone.filter((member) => member.estado === 'ativo' && member.papel === 'motorista');

  return (
    <>
      <OfflineNotice updatedAt={vehicles.dataUpdatedAt} />
      <CardList
        rows={rows}
        notLoaded={isListNotLoaded(vehicles)}
        loading={loading}
        failure={failure ?? (members.data ? null : membersFailure)}
        failedText={failure ? t.failed : fleetScreens.members.failed}
        emptyText={t.empty}
        cardHeight={140}
      >
        {(shown) => (
          <Stack gap="sm">
            {shown.map((vehicle) => (
              <VehicleDrivers
                key={`${vehicle.id}:${vehicle.motoristas.join(',')}`}
                vehicle={vehicle}
                drivers={drivers}
                members={everyone}
                centres={centreList}
              />
            ))}
          </Stack>
        )}
      </CardList>
      <ListPagination
        page={page}
        totalPages={failure ? 0 : (vehicles.data?.Paginacao.TotalPaginas ?? 0)}
        onPageChange={setPage}
        disabled={loading}
      />
    </>
  );
}
