import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { api, pixCharge, type PixCharge } from '@portal/contract';
import { centsToReais, parseBrlInput, purchaseInputError } from '@portal/domain';
import { IconQrcode } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { CurrencyInput } from '../../components/ui/CurrencyInput';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import {
  clearBuyBalance,
  getBuyFormVisible,
  getBuyPix,
  getBuyValue,
  getUser,
  setBuyFormVisible,
  setBuyPix,
  setBuyValue,
} from '../../lib/storage';
import { formatCurrencyInput } from '../../components/ui/currency';
import { PixChargePanel } from './PixChargePanel';

/** Decision 16: toasts top-center on /saldo/*. */
const position = 'top-center' as const;

interface Restored {
  value: string;
  charge: PixCharge | null;
}

/** Decision 6: the typed value, the Pix data and the 'form visible' flag survive a reload. */
function restore(): Restored {
  const value = formatCurrencyInput(getBuyValue() ?? '');
  const parsed = pixCharge.safeParse(getBuyPix());
  const charge = parsed.success && !getBuyFormVisible() ? parsed.data : null;
  return { value, charge };
}

/** SPEC 2 /saldo/comprar: 'Valor Saldo' and 'Comprar', then the Pix to pay (see PixChargePanel). */
export function BuyBalancePage() {
  usePageTitle('Comprar Saldo');
  const [initial] = useState(restore);
  const [value, setValue] = useState(initial.value);
  const [charge, setCharge] = useState<PixCharge | null>(initial.charge);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onValueChange = (next: string) => {
    setValue(next);
    setError(null);
    setBuyValue(next);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const problem = purchaseInputError(value);
    const cents = parseBrlInput(value);
    if (problem || cents === null) {
      setError(problem);
      inputRef.current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const answer = await request(api.createPixCharge, {
        body: { valor: centsToReais(cents), cpfCnpj: getUser()?.cpfCnpj ?? '', project: 'VPO' },
      });
      if (!answer.Sucesso || !answer.qrCode.payload) {
        toast.error(answer.Mensagem, { title: ERROR_TOAST_TITLE, position });
        return;
      }
      setBuyValue(value);
      setBuyPix(answer.qrCode);
      setBuyFormVisible(false);
      setCharge(answer.qrCode);
    } catch (failure) {
      if (isApiError(failure)) {
        if (failure.isUnauthorized) return;
        const fieldMessage = failure.errors.valor?.[0];
        if (fieldMessage) {
          setError(fieldMessage);
          inputRef.current?.focus();
          return;
        }
        toast.error(failure.message, { title: ERROR_TOAST_TITLE, position });
      } else {
        console.error(failure);
        toast.error('Não foi possível gerar o Pix agora. Tente novamente.', { title: ERROR_TOAST_TITLE, position });
      }
    } finally {
      setSubmitting(false);
    }
  };

  /** 'Gerar novo Pix': back to an empty form, stored data cleared (SPEC 2, decision 6). */
  const startOver = () => {
    clearBuyBalance();
    setCharge(null);
    setValue('');
    setError(null);
    window.setTimeout(() => inputRef.current?.focus(), 0);
  };

  return (
    <Stack gap="lg">
      <Title order={1}>Comprar Saldo</Title>
      {charge ? (
        <PixChargePanel charge={charge} onNewPix={startOver} />
      ) : (
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg" maw={560}>
          <form onSubmit={onSubmit} noValidate aria-label="Comprar saldo">
            <Stack gap="md">
              <Text>Informe o valor de saldo que deseja comprar. Você vai pagar com Pix.</Text>
              <CurrencyInput
                label="Valor Saldo"
                description="Mínimo R$ 100,00"
                name="valor"
                value={value}
                onChange={onValueChange}
                error={error}
                inputRef={inputRef}
                size="lg"
              />
              <Button type="submit" fullWidth loading={submitting} leftSection={<IconQrcode size={22} aria-hidden />}>
                Comprar
              </Button>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
