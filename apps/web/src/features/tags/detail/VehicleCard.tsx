import { Grid, Paper, Title } from '@mantine/core';
import type { VehicleDetail } from '@portal/contract';
import { formatCpfCnpj, messages } from '@portal/domain';
import { useVehicleModels } from '../api/queries';
import { modelNameOf } from '../catalog';
import { DetailField } from './DetailField';

/** The vehicle's data. On a phone the CPF/CNPJ gets a whole row: it never breaks across lines. */
export function VehicleCard({ vehicle }: { vehicle: VehicleDetail }) {
  const models = useVehicleModels();
  const model = modelNameOf(models.data?.Data, vehicle.modelo) ?? (models.isPending ? '...' : vehicle.modelo || '—');
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="veiculo-titulo">
      <Title order={2} size="h3" id="veiculo-titulo" mb="sm">
        Veículo
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 6, sm: 4 }}>
          <DetailField label="Placa" nowrap>
            {vehicle.LicensePlate}
          </DetailField>
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 4 }}>
          <DetailField label="Eixos">{vehicle.Axles}</DetailField>
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 4 }}>
          <DetailField label={messages.tag.labels.model}>{model}</DetailField>
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 4 }}>
          <DetailField label={messages.tag.labels.rntrc} nowrap>
            {vehicle.RntrcAntt || '—'}
          </DetailField>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <DetailField label={messages.tag.labels.anttDocument} nowrap>
            {vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '—'}
          </DetailField>
        </Grid.Col>
      </Grid>
    </Paper>
  );
}
