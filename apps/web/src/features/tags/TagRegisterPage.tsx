import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { api } from '@portal/contract';
import { INVOICE_GROUP_CODE } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { getUser } from '../../lib/storage';
import { useRegisterTag } from './api/mutations';
import { useOperators, useVehicleModels } from './api/queries';
import { operatorNameOf } from './catalog';
import { serverFields, showFormFailure } from './formFailure';
import { GreenpassWarning } from './GreenpassWarning';
import { readableAlert } from '../../components/ui/readableAlert';
import { AnttDocumentField, AxlesField, ModelField, OperatorField, PlateField, RntrcField, SerialField } from './tagFields';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

const schema = api.registerTag.body;
type TagRegistrationForm = z.input<typeof schema>;
type TagRegistrationValues = z.output<typeof schema>;

const SERVER_FIELDS = serverFields<TagRegistrationForm>(
  ['serialNumber', 'Operadora', 'licensePlate', 'CpfCnpjAntt', 'RntrcAntt', 'axles', 'modelo'],
  'axles',
);

/** spec §2 /tags/adicionar and spec §5 'Tag register'. */
export function TagRegisterPage() {
  usePageTitle('Cadastrar Tag');
  const navigate = useNavigate();
  const registration = useRegisterTag();
  const { control, handleSubmit, setError } = useForm<TagRegistrationForm, unknown, TagRegistrationValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      serialNumber: '',
      Operadora: '',
      licensePlate: '',
      CpfCnpjAntt: '',
      RntrcAntt: '',
      axles: '',
      modelo: '',
      cnpj: getUser()?.cpfCnpj ?? '',
      invoiceGroupCode: INVOICE_GROUP_CODE,
    },
  });

  const onSubmit = handleSubmit((values) =>
    registration.mutate(values, {
      onSuccess: () => {
        toast.success(`Tag cadastrada no veículo ${values.licensePlate}.`, { title: SUCCESS_TOAST_TITLE });
        void navigate(`/tags/detalhes/${values.licensePlate}`);
      },
      onError: (error) => showFormFailure(error, setError, SERVER_FIELDS),
    }),
  );

  return (
    <FormPage>
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
      <OfflineNotice />
      <CatalogFailure />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
        <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label="Cadastrar Tag">
          <Stack gap="md">
            <SerialField control={control} name="serialNumber" />
            <SerialWarning control={control} />
            <OperatorChoice control={control} />
            <PlateField control={control} name="licensePlate" />
            <AnttDocumentField control={control} name="CpfCnpjAntt" />
            <RntrcField control={control} name="RntrcAntt" />
            <AxlesField control={control} name="axles" />
            <ModelChoice control={control} />
            <NetworkSubmitButton size="lg" loading={registration.isPending} mt="xs">
              Cadastrar
            </NetworkSubmitButton>
          </Stack>
        </PrerenderedForm>
      </Paper>
    </FormPage>
  );
}

/*
 * The parts below read the catalogues (and the typed serial) themselves: a catalogue's arrival, or a
 * key typed in the serial, redraws that part, not the whole form (decision 59, item 10).
 */
type RegisterControl = Control<TagRegistrationForm, unknown, TagRegistrationValues>;

function CatalogFailure() {
  const operators = useOperators();
  const models = useVehicleModels();
  if (!operators.isError && !models.isError) return null;
  return (
    <Alert styles={readableAlert} color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
      Não foi possível carregar a lista de operadoras ou de modelos. Verifique sua internet e recarregue a página.
    </Alert>
  );
}

function SerialWarning({ control }: { control: RegisterControl }) {
  const operators = useOperators();
  const [operator, serial] = useWatch({ control, name: ['Operadora', 'serialNumber'] });
  return <GreenpassWarning operatorName={operatorNameOf(operators.data?.Operadoras, String(operator))} serial={String(serial)} />;
}

function OperatorChoice({ control }: { control: RegisterControl }) {
  const operators = useOperators();
  return <OperatorField control={control} name="Operadora" operators={operators.data?.Operadoras} loading={operators.isPending} />;
}

function ModelChoice({ control }: { control: RegisterControl }) {
  const models = useVehicleModels();
  return <ModelField control={control} name="modelo" brands={models.data?.Data} loading={models.isPending} />;
}
