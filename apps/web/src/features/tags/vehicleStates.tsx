import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../lib/errors';
import { isApiError } from '../../lib/api';
import { readableAlert } from '../../components/ui/readableAlert';
import { VEHICLE_SLOT_ATTRIBUTE } from '../../early-paint/vehicleMarkup';

/** While the vehicle of /tags/detalhes or /tags/editar loads; where the detail page's first script may paint it (early-paint/scripts/boot.ts). */
export function VehicleLoading() {
  return (
    <Center mih={200} role="status" aria-live="polite" {...{ [VEHICLE_SLOT_ATTRIBUTE]: '' }}>
      <Stack align="center" gap="xs">
        <Loader aria-label="Carregando o veículo" />
        <Text size="sm" c="dimmed">
          Carregando...
        </Text>
      </Stack>
    </Center>
  );
}

/** The vehicle could not be read: not the driver's (404/403), or a failure that may pass on a retry. */
export function VehicleLoadFailure({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  const notFound = isApiError(error) && (error.status === 404 || error.status === 403);
  return (
    <Stack gap="md">
      <Alert styles={readableAlert} color={notFound ? 'yellow' : 'red'} variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
        <Text fw={700}>{notFound ? messages.vehicle.notFound : errorMessage(error)}</Text>
        {notFound ? <Text size="sm">Confira a placa ou escolha o veículo na sua lista de tags.</Text> : null}
      </Alert>
      {notFound ? null : (
        <Button variant="outline" onClick={onRetry} loading={retrying} w={{ base: '100%', sm: 'auto' }}>
          Tentar novamente
        </Button>
      )}
    </Stack>
  );
}
