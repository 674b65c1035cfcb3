import { Box, Button, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useId, useRef } from 'react';
import { toast } from './toast';
import { useCopyToClipboard } from './useCopyToClipboard';

const COPY_LABEL = 'Copiar código PIX';
const COPIED_LABEL = 'Código PIX copiado!';
const PIX_QR_LABEL = 'QR Code do Pix para pagamento';

/**
 * A Pix to pay: its "copia e cola" with the copy button (the code selected when the phone has no
 * clipboard) and its QR Code for the bank app. A purchase's Pix (PixChargePanel) and the recurring
 * top-up's first Pix (decision 58) show the same.
 */
export function PixPayload({ payload }: { payload: string }) {
  const { copied, copy } = useCopyToClipboard();
  const payloadRef = useRef<HTMLDivElement>(null);
  const labelId = useId();

  const onCopy = async () => {
    if (await copy(payload)) return;
    // No clipboard at all: select the code so the driver can copy it by hand.
    const node = payloadRef.current;
    const selection = window.getSelection();
    if (node && selection) {
      const range = document.createRange();
      range.selectNodeContents(node);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    toast.warning('Não foi possível copiar automaticamente. O código foi selecionado: copie-o manualmente.', {
      position: 'top-center',
    });
  };

  return (
    <>
      <Stack gap={6}>
        <Text size="sm" c="dimmed" fw={600} id={labelId}>
          Pix copia e cola
        </Text>
        <Box
          ref={payloadRef}
          aria-labelledby={labelId}
          role="textbox"
          aria-readonly
          aria-multiline
          tabIndex={0}
          p="sm"
          ff="monospace"
          fz="sm"
          bg="gray.0"
          data-testid="pix-payload"
          style={{
            border: '1px solid var(--mantine-color-gray-5)',
            borderRadius: 'var(--mantine-radius-md)',
            overflowWrap: 'anywhere',
            wordBreak: 'break-all',
            userSelect: 'all',
            WebkitUserSelect: 'all',
            lineHeight: 1.45,
          }}
        >
          {payload}
        </Box>
        <Button
          fullWidth
          size="lg"
          color={copied ? 'sign' : undefined}
          onClick={() => void onCopy()}
          leftSection={copied ? <IconCheck size={22} aria-hidden /> : <IconCopy size={22} aria-hidden />}
        >
          {copied ? COPIED_LABEL : COPY_LABEL}
        </Button>
        <VisuallyHidden role="status" aria-live="polite">
          {copied ? 'Código copiado para a área de transferência.' : ''}
        </VisuallyHidden>
      </Stack>

      <Stack gap={6} align="center">
        <Text size="sm" c="dimmed" fw={600} ta="center">
          Ou leia o QR Code no app do seu banco
        </Text>
        <Box
          p="sm"
          bg="white"
          mx="auto"
          style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-md)', lineHeight: 0 }}
        >
          <QRCodeSVG
            value={payload}
            size={208}
            level="M"
            marginSize={0}
            role="img"
            aria-label={PIX_QR_LABEL}
            title={PIX_QR_LABEL}
            data-testid="pix-qrcode"
          />
        </Box>
      </Stack>
    </>
  );
}
