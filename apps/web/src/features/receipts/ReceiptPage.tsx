import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { receiptKind, type Receipt, type ReceiptKind } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconAlertCircle, IconArrowLeft, IconDownload, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { errorMessage } from '../../lib/errors';
import { isApiError } from '../../lib/http';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { receiptQuery, useReceiptPdf } from './api/receipts';
import classes from './ReceiptPage.module.css';
import { ReceiptView } from './ReceiptView';

/** A receipt on paper and on screen is as wide as a bank's: one readable column. */
const RECEIPT_WIDTH = 680;

function BackToStatement() {
  return (
    <Anchor component={Link} to="/extrato/listar" fw={600} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, minHeight: 32 }}>
      <IconArrowLeft size={18} aria-hidden />
      Voltar ao extrato
    </Anchor>
  );
}

function Actions({ receipt }: { receipt: Receipt }) {
  const online = useOnline();
  const pdf = useReceiptPdf();
  const download = () =>
    pdf.mutate(
      { kind: receipt.tipo, id: receipt.id },
      {
        onError: (error) => {
          if (isApiError(error) && error.isUnauthorized) return;
          toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE });
        },
      },
    );
  return (
    <div className={classes.actions}>
      <Button
        leftSection={<IconDownload size={20} aria-hidden />}
        px="md"
        loading={pdf.isPending}
        disabled={!online}
        aria-describedby={online ? undefined : OFFLINE_REASON_ID}
        onClick={download}
      >
        Baixar PDF
      </Button>
      <Button leftSection={<IconPrinter size={20} aria-hidden />} variant="light" px="md" onClick={() => window.print()}>
        Imprimir
      </Button>
    </div>
  );
}

function LoadedReceipt({ kind, id }: { kind: ReceiptKind; id: string }) {
  const receipt = useQuery(receiptQuery(kind, id));

  if (receipt.data) {
    return (
      <>
        <OfflineNotice updatedAt={receipt.dataUpdatedAt} />
        <Actions receipt={receipt.data.Comprovante} />
        <ReceiptView receipt={receipt.data.Comprovante} />
      </>
    );
  }
  if (receipt.isError) return <Failure message={errorMessage(receipt.error)} />;
  return (
    <>
      <OfflineNotice updatedAt={0} actions={false} />
      <Center mih={160} role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-hidden />
          <Text size="sm" c="dimmed">
            Carregando comprovante...
          </Text>
        </Stack>
      </Center>
    </>
  );
}

/** Unknown, another driver's, or a purchase not paid yet: the API's Mensagem and the way back. */
function Failure({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
      <Stack gap="sm" align="flex-start">
        <Text fw={600}>{message}</Text>
        <Button component={Link} to="/extrato/listar" variant="white" color="red" leftSection={<IconArrowLeft size={18} aria-hidden />}>
          Voltar ao extrato
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * Issue 12 /comprovantes/:tipo/:id: the receipt of a Pix purchase ('compra') or a withdrawal
 * ('saque'), with 'Imprimir' (printed, the page is only the receipt) and 'Baixar PDF'.
 */
export function ReceiptPage() {
  usePageTitle('Comprovante');
  const params = useParams();
  const kind = receiptKind.safeParse(params.tipo);
  const id = params.id ?? '';

  return (
    <FormPage width={RECEIPT_WIDTH}>
      <BackToStatement />
      {kind.success && id ? (
        <LoadedReceipt key={`${kind.data}/${id}`} kind={kind.data} id={id} />
      ) : (
        <Failure message={messages.receipt.notFound} />
      )}
    </FormPage>
  );
}
