import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';

/** A read that failed, said at once, with 'Tentar novamente' (the VPO's details, the contests list). */
export function ReadFailed({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle aria-hidden />}
      styles={{ message: { color: 'var(--mantine-color-gray-9)' } }}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm" fw={600}>
          {message}
        </Text>
        <Button
          variant="white"
          color="red"
          size="sm"
          leftSection={<IconRefresh size={18} aria-hidden />}
          loading={retrying}
          onClick={onRetry}
        >
          Tentar novamente
        </Button>
      </Stack>
    </Alert>
  );
}
