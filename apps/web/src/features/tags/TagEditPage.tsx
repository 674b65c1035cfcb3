import { Alert, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { api, vehicleDetail, type VehicleDetail } from '@portal/contract';
import {
  canEdit,
  canManage,
  formatCpfCnpj,
  formatSerial,
  messages,
  normalizePlate,
  normalizeSerial,
  stripDocument,
  tagEditErrors,
  vehicleTypeFor,
  type TagEditFields,
} from '@portal/domain';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import { answerFailure, failureMessage, invalidateTagData, operatorNameOf, useOperators, vehicleDetailQuery } from '../../lib/tags';
import { AxlesSelect, OperatorSelect, PlateInput, readableAlert, RntrcInput, SerialInput, AnttDocumentInput } from './tagFields';

type Field = keyof TagEditFields;
const FIELD_ORDER: readonly Field[] = ['serialNumber', 'Operadora', 'LicensePlate', 'CpfCnpjAntt', 'RntrcAntt', 'Axles'];

/** SPEC 2: the navigation state carries the vehicle and its tag; a full vehicle is used as is. */
function vehicleFromState(state: unknown, plate: string): VehicleDetail | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const parsed = vehicleDetail.safeParse((state as { vehicle?: unknown }).vehicle);
  return parsed.success && parsed.data.LicensePlate === plate ? parsed.data : undefined;
}

/** SPEC 2 /tags/editar/{licensePlate} and SPEC 5 'Edit tag'. */
export function TagEditPage() {
  const plate = (useParams().licensePlate ?? '').toUpperCase();
  usePageTitle(`Editar Tag ${plate}`);
  const location = useLocation();
  const fromState = vehicleFromState(location.state, plate);
  // Without the state (a reload, a shared link, the list's row) the detail is fetched.
  const detail = useQuery({ ...vehicleDetailQuery(plate), enabled: fromState === undefined });
  const operators = useOperators();
  const vehicle = fromState ?? detail.data?.Dados;
  const back = `/tags/detalhes/${plate}`;

  let body: ReactNode;
  if (!vehicle && detail.isError) {
    const notFound = isApiError(detail.error) && (detail.error.status === 404 || detail.error.status === 403);
    body = (
      <Alert styles={readableAlert} color={notFound ? 'yellow' : 'red'} variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
        {notFound ? messages.vehicle.notFound : failureMessage(detail.error)}
      </Alert>
    );
  } else if (!vehicle || operators.isPending) {
    body = (
      <Center mih={200} role="status">
        <Loader aria-label="Carregando o veículo" />
      </Center>
    );
  } else if (
    !vehicle.tag ||
    !canEdit(vehicle.tag.statusCode) ||
    !canManage({ ...vehicle.tag, operatorName: operatorNameOf(operators.data?.Operadoras, vehicle.tag.Operadora) })
  ) {
    const reason = !vehicle.tag
      ? 'Este veículo está sem tag. Cadastre uma tag para ele.'
      : !canEdit(vehicle.tag.statusCode)
        ? `${messages.tag.cannotEdit}. Esta tag está ${(vehicle.tag.statusCode === 100 ? 'ativa' : 'bloqueada ou cancelada')}.`
        : messages.tag.whyNotManageable;
    body = (
      <Stack gap="md">
        <Alert styles={readableAlert} color="yellow" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />} title="Não é possível editar esta tag">
          <Text size="sm">{reason}</Text>
        </Alert>
        <Button component={Link} to={back} variant="light" leftSection={<IconArrowLeft size={20} aria-hidden />} fullWidth maw={{ sm: 320 }}>
          Voltar aos detalhes
        </Button>
      </Stack>
    );
  } else {
    body = <EditForm vehicle={vehicle} />;
  }

  return (
    <Stack gap="lg" maw={560}>
      <Button component={Link} to={back} variant="subtle" px={0} w="fit-content" leftSection={<IconArrowLeft size={20} aria-hidden />}>
        Voltar aos detalhes
      </Button>
      <Stack gap={4}>
        <Title order={1}>Editar Tag</Title>
        <Text>Corrija os dados da tag e do veículo {plate}. Só tags ainda não ativadas podem ser editadas.</Text>
      </Stack>
      {body}
    </Stack>
  );
}

function EditForm({ vehicle }: { vehicle: VehicleDetail }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const operators = useOperators();
  const [values, setValues] = useState<TagEditFields>({
    serialNumber: formatSerial(vehicle.tag?.serialNumber ?? ''),
    Operadora: vehicle.tag?.Operadora ?? '',
    LicensePlate: vehicle.LicensePlate,
    CpfCnpjAntt: vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '',
    RntrcAntt: vehicle.RntrcAntt,
    Axles: String(vehicle.Axles),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const serialNumberRef = useRef<HTMLInputElement>(null);
  const OperadoraRef = useRef<HTMLSelectElement>(null);
  const LicensePlateRef = useRef<HTMLInputElement>(null);
  const CpfCnpjAnttRef = useRef<HTMLInputElement>(null);
  const RntrcAnttRef = useRef<HTMLInputElement>(null);
  const AxlesRef = useRef<HTMLSelectElement>(null);

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const showErrors = (found: Partial<Record<Field, string>>) => {
    setErrors(found);
    const first = FIELD_ORDER.find((f) => found[f]);
    const refs: Record<Field, RefObject<HTMLInputElement | HTMLSelectElement | null>> = { serialNumber: serialNumberRef, Operadora: OperadoraRef, LicensePlate: LicensePlateRef, CpfCnpjAntt: CpfCnpjAnttRef, RntrcAntt: RntrcAnttRef, Axles: AxlesRef };
    if (first) refs[first].current?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = tagEditErrors(values);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    setSubmitting(true);
    const axles = Number(values.Axles);
    const plate = normalizePlate(values.LicensePlate);
    try {
      const answer = await request(api.updateVehicle, {
        body: {
          vehicle_id: vehicle.id,
          serialNumber: normalizeSerial(values.serialNumber),
          Operadora: values.Operadora,
          LicensePlate: plate,
          CpfCnpjAntt: stripDocument(values.CpfCnpjAntt),
          RntrcAntt: values.RntrcAntt,
          Axles: axles,
          vehicleType: vehicleTypeFor(axles),
        },
      });
      const failure = answerFailure(answer);
      if (failure) {
        toast.error(failure, { title: ERROR_TOAST_TITLE });
        return;
      }
      await invalidateTagData(queryClient);
      toast.success(`Os dados do veículo ${plate} foram salvos.`, { title: SUCCESS_TOAST_TITLE });
      void navigate(`/tags/detalhes/${plate}`, { replace: true });
    } catch (error) {
      if (isApiError(error) && error.isUnauthorized) return;
      const fieldErrors: Partial<Record<Field, string>> = {};
      if (isApiError(error)) {
        for (const [name, list] of Object.entries(error.errors)) {
          const field = name === 'vehicleType' ? 'Axles' : (FIELD_ORDER as readonly string[]).includes(name) ? (name as Field) : null;
          if (field && list[0] && !fieldErrors[field]) fieldErrors[field] = list[0];
        }
      }
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      else toast.error(failureMessage(error), { title: ERROR_TOAST_TITLE });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Editar Tag">
        <Stack gap="md">
          <SerialInput value={values.serialNumber} onChange={set('serialNumber')} error={errors.serialNumber} inputRef={serialNumberRef} />
          <OperatorSelect
            operators={operators.data?.Operadoras}
            loading={operators.isPending}
            value={values.Operadora}
            onChange={(event) => set('Operadora')(event.currentTarget.value)}
            error={errors.Operadora}
            ref={OperadoraRef}
          />
          <PlateInput
            name="LicensePlate"
            value={values.LicensePlate}
            onChange={set('LicensePlate')}
            error={errors.LicensePlate}
            inputRef={LicensePlateRef}
          />
          <AnttDocumentInput value={values.CpfCnpjAntt} onChange={set('CpfCnpjAntt')} error={errors.CpfCnpjAntt} inputRef={CpfCnpjAnttRef} />
          <RntrcInput value={values.RntrcAntt} onChange={set('RntrcAntt')} error={errors.RntrcAntt} inputRef={RntrcAnttRef} />
          <AxlesSelect
            name="Axles"
            value={String(values.Axles ?? '')}
            onChange={(event) => set('Axles')(event.currentTarget.value)}
            error={errors.Axles}
            ref={AxlesRef}
          />
          <Button type="submit" size="lg" fullWidth loading={submitting} mt="xs">
            Salvar
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
