import { Alert } from '@mantine/core';
import { GREENPASS_WARNING_MS, isTaggyGreenpassWarning, messages, normalizeSerial } from '@portal/domain';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

/**
 * spec §9 / founding decision 16: Taggy tags whose serial starts with 5666 get a warning for 60 s. It sits in
 * the page's flow, where the driver is looking, rather than as a toast over the header and 'Sair';
 * the message already opens with 'Atenção', so no title repeats it.
 */
export function GreenpassWarning({ operatorName, serial }: { operatorName: string | null | undefined; serial: string }) {
  const applies = isTaggyGreenpassWarning(operatorName, serial);
  // Once per operator and serial prefix: typing the rest of the serial neither restarts nor repeats it.
  const key = `${operatorName ?? ''}:${normalizeSerial(serial).slice(0, 4)}`;
  const [dismissed, setDismissed] = useState<string | null>(null);

  useEffect(() => {
    if (!applies) return;
    const timer = window.setTimeout(() => setDismissed(key), GREENPASS_WARNING_MS);
    return () => window.clearTimeout(timer);
  }, [applies, key]);

  if (!applies || dismissed === key) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      withCloseButton
      closeButtonLabel="Fechar aviso"
      onClose={() => setDismissed(key)}
      styles={{ message: { color: 'var(--mantine-color-gray-9)' } }}
    >
      {messages.tag.greenpassWarning}
    </Alert>
  );
}
