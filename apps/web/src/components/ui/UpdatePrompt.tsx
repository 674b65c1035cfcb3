import { Button, Group, Paper, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';

interface UpdatePromptProps {
  /** Lets the waiting version take over; the page reloads once it controls it. */
  onUpdate: () => void;
  /** 'Depois': the driver keeps the running version; the new one starts next time the app opens. */
  onDismiss: () => void;
}

/**
 * Issue 11: a new version announces itself instead of changing under the driver's fingers. A
 * notice at the bottom of the screen (thumb reach), above everything, never covering the header.
 */
export function UpdatePrompt({ onUpdate, onDismiss }: UpdatePromptProps) {
  const [updating, setUpdating] = useState(false);
  return (
    <Paper
      role="status"
      aria-live="polite"
      shadow="lg"
      radius="md"
      p="md"
      withBorder
      pos="fixed"
      style={{
        zIndex: 2000,
        left: 12,
        right: 12,
        bottom: 'calc(12px + env(safe-area-inset-bottom, 0px))',
        maxWidth: 480,
        marginInline: 'auto',
      }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text fw={700}>Nova versão disponível</Text>
        <Group gap="xs" wrap="nowrap" style={{ flexGrow: 1, justifyContent: 'flex-end' }}>
          <Button variant="subtle" onClick={onDismiss} disabled={updating}>
            Depois
          </Button>
          <Button
            leftSection={<IconRefresh size={18} aria-hidden />}
            loading={updating}
            onClick={() => {
              setUpdating(true);
              onUpdate();
            }}
          >
            Atualizar
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
