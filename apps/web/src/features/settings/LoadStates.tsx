import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../lib/errors';

/** A section whose read failed: why, and 'Tentar novamente'. */
export function LoadFailed({ title, error, retrying, onRetry }: { title: string; error: unknown; retrying: boolean; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button variant="light" size="sm" leftSection={<IconRefresh size={18} aria-hidden />} onClick={onRetry} loading={retrying}>
          Tentar novamente
        </Button>
      </Stack>
    </Alert>
  );
}

/** A section's form while its data loads: a label, `fields` inputs and the button. */
export function FormSkeleton({ fields = 1 }: { fields?: number }) {
  return (
    <Stack gap="md" aria-busy>
      {Array.from({ length: fields }, (_, i) => (
        <Stack key={i} gap={6}>
          <Skeleton height={20} width={200} radius="sm" />
          <Skeleton height={50} radius="sm" />
        </Stack>
      ))}
      <Skeleton height={42} radius="sm" />
    </Stack>
  );
}
