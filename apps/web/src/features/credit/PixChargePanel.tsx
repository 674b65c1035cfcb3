import { Alert, Box, Button, Group, Loader, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ChargeStatus, PixCharge } from '@portal/contract';
import { messages } from '@portal/domain';
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleCheck,
  IconCopy,
  IconHome,
  IconInfoCircle,
  IconReceipt,
  IconRefresh,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Money } from '../../components/ui/Money';
import { toast } from '../../components/ui/toast';
import { useCopyToClipboard } from '../../components/ui/useCopyToClipboard';
import { balanceQueryKey } from '../../lib/balance';
import { errorMessage } from '../../lib/errors';
import { isClientError } from '../../lib/http';
import { RECEIPT_LINK_LABEL, receiptPath } from '../../lib/receipts';
import { pixChargeQuery } from './api/credit';

const COPY_LABEL = 'Copiar código PIX';
const COPIED_LABEL = 'Código PIX copiado!';
const PIX_WARNING = 'O Pix pode demorar até alguns minutos para ser validado e receber seu saldo.';

export interface PixChargePanelProps {
  charge: PixCharge;
  onNewPix: () => void;
}

/**
 * spec §2 /saldo/comprar after 'Comprar': the Pix to pay (QR image, copia e cola, copy button,
 * warning), which turns by itself into 'Pagamento recebido!' when the webhook settles it.
 */
export function PixChargePanel({ charge, onNewPix }: PixChargePanelProps) {
  const queryClient = useQueryClient();
  const { data, error, isError } = useQuery(pixChargeQuery(charge.id));
  const status: ChargeStatus = data?.qrCode.status ?? charge.status;
  const lost = isError && isClientError(error) ? error : null;

  useEffect(() => {
    if (status === 'RECEIVED') void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
  }, [status, queryClient]);

  const newPixButton = (
    <Button variant="outline" fullWidth onClick={onNewPix} leftSection={<IconRefresh size={20} aria-hidden />}>
      Gerar novo Pix
    </Button>
  );

  if (status === 'RECEIVED') {
    return (
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Alert
            color="sign"
            variant="light"
            role="status"
            icon={<IconCircleCheck aria-hidden />}
            title={messages.pix.chargeStatus.RECEIVED}
            styles={{ title: { fontSize: 'var(--mantine-font-size-lg)' } }}
          >
            <Text>
              Valor creditado: <Money reais={charge.valor} fw={700} />
            </Text>
          </Alert>
          <Button component={Link} to="/dashboard" fullWidth leftSection={<IconHome size={20} aria-hidden />}>
            Ver meu saldo no painel
          </Button>
          <Button
            component={Link}
            to={receiptPath('compra', charge.id)}
            variant="light"
            fullWidth
            leftSection={<IconReceipt size={20} aria-hidden />}
          >
            {RECEIPT_LINK_LABEL}
          </Button>
          {newPixButton}
        </Stack>
      </Paper>
    );
  }

  if (status === 'OVERDUE' || status === 'REFUNDED' || lost) {
    return (
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <Alert
            color={status === 'REFUNDED' || lost ? 'red' : 'yellow'}
            variant="light"
            role="alert"
            icon={<IconAlertTriangle aria-hidden />}
          >
            <Text fw={600}>{lost ? errorMessage(lost) : messages.pix.chargeStatus[status]}</Text>
            <Text size="sm" mt={4}>
              Valor do Pix: <Money reais={charge.valor} />
            </Text>
          </Alert>
          {newPixButton}
        </Stack>
      </Paper>
    );
  }

  return <PendingCharge charge={charge} newPixButton={newPixButton} />;
}

function PendingCharge({ charge, newPixButton }: { charge: PixCharge; newPixButton: ReactNode }) {
  const { copied, copy } = useCopyToClipboard();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const payloadRef = useRef<HTMLDivElement>(null);

  // The Pix just appeared in place of the form: move the reader there.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const onCopy = async () => {
    if (await copy(charge.payload)) return;
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
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap" align="center">
            <IconCircleCheck size={28} color="var(--mantine-color-sign-8)" aria-hidden style={{ flexShrink: 0 }} />
            <Title order={2} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
              Pix gerado com sucesso!
            </Title>
          </Group>
          <Text>Copie o código abaixo para fazer o pagamento.</Text>
        </Stack>

        <Stack gap={0}>
          <Text size="sm" c="dimmed" fw={600}>
            Valor a pagar
          </Text>
          <Money reais={charge.valor} fz="calc(2rem * var(--mantine-scale))" fw={700} lh={1.2} />
        </Stack>

        <Stack gap={6}>
          <Text size="sm" c="dimmed" fw={600} id="pix-copia-e-cola">
            Pix copia e cola
          </Text>
          <Box
            ref={payloadRef}
            aria-labelledby="pix-copia-e-cola"
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
            {charge.payload}
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
              value={charge.payload}
              size={208}
              level="M"
              marginSize={0}
              role="img"
              aria-label="QR Code do Pix para pagamento"
              title="QR Code do Pix para pagamento"
              data-testid="pix-qrcode"
            />
          </Box>
        </Stack>

        <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{messages.pix.chargeStatus.PENDING}</Text>
        </Group>

        <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />}>
          <Text size="sm" c="dark.7">
            {PIX_WARNING}
          </Text>
        </Alert>

        {newPixButton}
      </Stack>
    </Paper>
  );
}
