import { Alert, Button, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { api } from '@portal/contract';
import {
  INVOICE_GROUP_CODE,
  normalizePlate,
  normalizeSerial,
  stripDocument,
  tagRegistrationErrors,
  vehicleTypeFor,
  type TagRegistrationFields,
} from '@portal/domain';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import { getUser } from '../../lib/storage';
import {
  answerFailure,
  failureMessage,
  invalidateTagData,
  operatorNameOf,
  useOperators,
  useVehicleModels,
  warnIfTaggyGreenpass,
} from '../../lib/tags';
import { AxlesSelect, OperatorSelect, PlateInput, readableAlert, RntrcInput, SerialInput, AnttDocumentInput } from './tagFields';

type Field = keyof TagRegistrationFields;
/** The order of the form (and of SPEC 5's messages): the first wrong field gets the focus. */
const FIELD_ORDER: readonly Field[] = ['serialNumber', 'Operadora', 'licensePlate', 'CpfCnpjAntt', 'RntrcAntt', 'axles', 'modelo'];
const SERVER_FIELDS: Readonly<Record<string, Field>> = {
  serialNumber: 'serialNumber',
  Operadora: 'Operadora',
  licensePlate: 'licensePlate',
  CpfCnpjAntt: 'CpfCnpjAntt',
  RntrcAntt: 'RntrcAntt',
  axles: 'axles',
  vehicleType: 'axles',
  modelo: 'modelo',
};

const empty: TagRegistrationFields = { serialNumber: '', Operadora: '', licensePlate: '', CpfCnpjAntt: '', RntrcAntt: '', axles: '', modelo: '' };

/** SPEC 2 /tags/adicionar and SPEC 5 'Tag register'. */
export function TagRegisterPage() {
  usePageTitle('Cadastrar Tag');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const operators = useOperators();
  const models = useVehicleModels();
  const [values, setValues] = useState<TagRegistrationFields>(empty);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const serialNumberRef = useRef<HTMLInputElement>(null);
  const OperadoraRef = useRef<HTMLSelectElement>(null);
  const licensePlateRef = useRef<HTMLInputElement>(null);
  const CpfCnpjAnttRef = useRef<HTMLInputElement>(null);
  const RntrcAnttRef = useRef<HTMLInputElement>(null);
  const axlesRef = useRef<HTMLSelectElement>(null);
  const modeloRef = useRef<HTMLSelectElement>(null);

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  // SPEC 9: a Taggy serial starting with 5666 gets the 60-second warning (once per serial).
  const operatorName = operatorNameOf(operators.data?.Operadoras, values.Operadora);
  const warnedFor = useRef<string | null>(null);
  const serialDigits = normalizeSerial(values.serialNumber);
  useEffect(() => {
    const key = `${operatorName ?? ''}:${serialDigits.slice(0, 4)}`;
    if (warnedFor.current === key) return;
    if (warnIfTaggyGreenpass(operatorName, serialDigits)) warnedFor.current = key;
  }, [operatorName, serialDigits]);

  const showErrors = (found: Partial<Record<Field, string>>) => {
    setErrors(found);
    const first = FIELD_ORDER.find((f) => found[f]);
    const refs: Record<Field, RefObject<HTMLInputElement | HTMLSelectElement | null>> = { serialNumber: serialNumberRef, Operadora: OperadoraRef, licensePlate: licensePlateRef, CpfCnpjAntt: CpfCnpjAnttRef, RntrcAntt: RntrcAnttRef, axles: axlesRef, modelo: modeloRef };
    if (first) refs[first].current?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = tagRegistrationErrors(values);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    setSubmitting(true);
    const axles = Number(values.axles);
    const plate = normalizePlate(values.licensePlate);
    try {
      const answer = await request(api.registerTag, {
        body: {
          serialNumber: normalizeSerial(values.serialNumber),
          Operadora: values.Operadora,
          licensePlate: plate,
          cnpj: getUser()?.cpfCnpj ?? '',
          invoiceGroupCode: INVOICE_GROUP_CODE,
          vehicleType: vehicleTypeFor(axles),
          axles,
          CpfCnpjAntt: stripDocument(values.CpfCnpjAntt),
          RntrcAntt: values.RntrcAntt,
          modelo: values.modelo,
        },
      });
      const failure = answerFailure(answer);
      if (failure) {
        toast.error(failure, { title: ERROR_TOAST_TITLE });
        return;
      }
      await invalidateTagData(queryClient);
      toast.success(`Tag cadastrada no veículo ${plate}.`, { title: SUCCESS_TOAST_TITLE });
      void navigate(`/tags/detalhes/${plate}`);
    } catch (error) {
      if (isApiError(error) && error.isUnauthorized) return;
      const fieldErrors: Partial<Record<Field, string>> = {};
      if (isApiError(error)) {
        for (const [name, list] of Object.entries(error.errors)) {
          const field = SERVER_FIELDS[name];
          if (field && list[0] && !fieldErrors[field]) fieldErrors[field] = list[0];
        }
      }
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      else toast.error(failureMessage(error), { title: ERROR_TOAST_TITLE });
    } finally {
      setSubmitting(false);
    }
  };

  const modelData = [
    { value: '', label: models.isPending ? 'Carregando...' : 'Selecione o modelo' },
    ...(models.data?.Data ?? []).map((brand) => ({
      group: brand.brand,
      items: brand.modelos.map((m) => ({ value: m.modelId, label: m.modelName })),
    })),
  ];

  return (
    <Stack gap="lg" maw={560}>
      <Button
        component={Link}
        to="/tags/listar"
        variant="subtle"
        px={0}
        w="fit-content"
        leftSection={<IconArrowLeft size={20} aria-hidden />}
      >
        Voltar para Tags
      </Button>
      <Stack gap={4}>
        <Title order={1}>Cadastrar Tag</Title>
        <Text>Informe os dados da tag e do veículo em que ela será instalada.</Text>
      </Stack>
      {operators.isError || models.isError ? (
        <Alert styles={readableAlert} color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
          Não foi possível carregar a lista de operadoras ou de modelos. Verifique sua internet e recarregue a página.
        </Alert>
      ) : null}
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Cadastrar Tag">
          <Stack gap="md">
            <SerialInput
              value={values.serialNumber}
              onChange={set('serialNumber')}
              error={errors.serialNumber}
              inputRef={serialNumberRef}
            />
            <OperatorSelect
              operators={operators.data?.Operadoras}
              loading={operators.isPending}
              value={values.Operadora}
              onChange={(event) => set('Operadora')(event.currentTarget.value)}
              error={errors.Operadora}
              ref={OperadoraRef}
            />
            <PlateInput
              name="licensePlate"
              value={values.licensePlate}
              onChange={set('licensePlate')}
              error={errors.licensePlate}
              inputRef={licensePlateRef}
            />
            <AnttDocumentInput value={values.CpfCnpjAntt} onChange={set('CpfCnpjAntt')} error={errors.CpfCnpjAntt} inputRef={CpfCnpjAnttRef} />
            <RntrcInput value={values.RntrcAntt} onChange={set('RntrcAntt')} error={errors.RntrcAntt} inputRef={RntrcAnttRef} />
            <AxlesSelect
              name="axles"
              value={String(values.axles ?? '')}
              onChange={(event) => set('axles')(event.currentTarget.value)}
              error={errors.axles}
              ref={axlesRef}
            />
            <NativeSelect
              label="Modelo"
              name="modelo"
              size="md"
              data={modelData}
              value={values.modelo}
              onChange={(event) => set('modelo')(event.currentTarget.value)}
              error={errors.modelo}
              ref={modeloRef}
            />
            <Button type="submit" size="lg" fullWidth loading={submitting} mt="xs">
              Cadastrar
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

