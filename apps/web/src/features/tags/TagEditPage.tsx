import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { api, vehicleDetail, type Operator, type VehicleDetail } from '@portal/contract';
import { formatCpfCnpj, formatSerial, tagActionBlocker } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useUpdateVehicle } from './api/mutations';
import { useOperators, vehicleDetailQuery } from './api/queries';
import { operatorNameOf } from './catalog';
import { serverFields, showFormFailure } from './formFailure';
import { readableAlert } from '../../components/ui/readableAlert';
import { AnttDocumentField, AxlesField, OperatorField, PlateField, RntrcField, SerialField } from './tagFields';
import { VehicleLoadFailure, VehicleLoading } from './vehicleStates';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

const schema = api.updateVehicle.body;
type TagEditForm = z.input<typeof schema>;
type TagEditValues = z.output<typeof schema>;

const SERVER_FIELDS = serverFields<TagEditForm>(
  ['serialNumber', 'Operadora', 'LicensePlate', 'CpfCnpjAntt', 'RntrcAntt', 'Axles'],
  'Axles',
);

/** spec §2: the navigation state carries the vehicle and its tag; a full vehicle is used as is. */
function vehicleFromState(state: unknown, plate: string): VehicleDetail | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const parsed = vehicleDetail.safeParse((state as { vehicle?: unknown }).vehicle);
  return parsed.success && parsed.data.LicensePlate === plate ? parsed.data : undefined;
}

/** Why this vehicle's tag cannot be edited (its state named), or null: the server's rule (spec §4 'Edit'). */
function editBlocker(vehicle: VehicleDetail, operators: readonly Operator[] | undefined): string | null {
  if (!vehicle.tag) return 'Este veículo está sem tag. Cadastre uma tag para ele.';
  return tagActionBlocker('edit', { ...vehicle.tag, operatorName: operatorNameOf(operators, vehicle.tag.Operadora) });
}

/** spec §2 /tags/editar/{licensePlate} and spec §5 'Edit tag'. */
export function TagEditPage() {
  const plate = (useParams().licensePlate ?? '').toUpperCase();
  usePageTitle(`Editar Tag ${plate}`);
  const fromState = vehicleFromState(useLocation().state, plate);
  // Without the state (a reload, a shared link, the list's row) the detail is fetched.
  const detail = useQuery({ ...vehicleDetailQuery(plate), enabled: fromState === undefined });
  const operators = useOperators();
  const vehicle = fromState ?? detail.data?.Dados;
  // The form is drawn in the background (a transition), yielding to taps: drawn in one go when the
  // vehicle arrived, it held a slow phone's main thread for about 200 ms (decision 59, item 10).
  const shown = useDeferredValue(vehicle && !operators.isPending ? vehicle : undefined);
  const back = `/tags/detalhes/${plate}`;

  let body: ReactNode;
  if (!vehicle && detail.isError) {
    body = <VehicleLoadFailure error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />;
  } else if (!shown) {
    body = <VehicleLoading />;
  } else {
    const blocker = editBlocker(shown, operators.data?.Operadoras);
    body = blocker ? <CannotEdit reason={blocker} back={back} /> : <TagEditForm vehicle={shown} />;
  }

  return (
    <FormPage>
      <Button component={Link} to={back} variant="subtle" px={0} w="fit-content" leftSection={<IconArrowLeft size={20} aria-hidden />}>
        Voltar aos detalhes
      </Button>
      <Stack gap={4}>
        <Title order={1}>Editar Tag</Title>
        <Text>Corrija os dados da tag e do veículo {plate}. Só tags ainda não ativadas podem ser editadas.</Text>
      </Stack>
      <OfflineNotice />
      {body}
    </FormPage>
  );
}

function CannotEdit({ reason, back }: { reason: string; back: string }) {
  return (
    <Stack gap="md">
      <Alert
        styles={readableAlert}
        color="yellow"
        variant="light"
        role="alert"
        icon={<IconAlertCircle aria-hidden />}
        title="Não é possível editar esta tag"
      >
        <Text size="sm">{reason}</Text>
      </Alert>
      <Button component={Link} to={back} variant="light" leftSection={<IconArrowLeft size={20} aria-hidden />} fullWidth maw={{ sm: 320 }}>
        Voltar aos detalhes
      </Button>
    </Stack>
  );
}

function TagEditForm({ vehicle }: { vehicle: VehicleDetail }) {
  const navigate = useNavigate();
  const operators = useOperators();
  const update = useUpdateVehicle();
  const { control, handleSubmit, setError } = useForm<TagEditForm, unknown, TagEditValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      vehicle_id: vehicle.id,
      serialNumber: formatSerial(vehicle.tag?.serialNumber ?? ''),
      Operadora: vehicle.tag?.Operadora ?? '',
      LicensePlate: vehicle.LicensePlate,
      CpfCnpjAntt: vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '',
      RntrcAntt: vehicle.RntrcAntt,
      Axles: vehicle.Axles,
    },
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => {
        toast.success(`Os dados do veículo ${values.LicensePlate} foram salvos.`, { title: SUCCESS_TOAST_TITLE });
        void navigate(`/tags/detalhes/${values.LicensePlate}`, { replace: true });
      },
      onError: (error) => showFormFailure(error, setError, SERVER_FIELDS),
    }),
  );

  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
      <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label="Editar Tag">
        <Stack gap="md">
          <SerialField control={control} name="serialNumber" />
          <OperatorField control={control} name="Operadora" operators={operators.data?.Operadoras} loading={operators.isPending} />
          <PlateField control={control} name="LicensePlate" />
          <AnttDocumentField control={control} name="CpfCnpjAntt" />
          <RntrcField control={control} name="RntrcAntt" />
          <AxlesField control={control} name="Axles" />
          <NetworkSubmitButton size="lg" loading={update.isPending} mt="xs">
            Salvar
          </NetworkSubmitButton>
        </Stack>
      </PrerenderedForm>
    </Paper>
  );
}
