import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { pixCharge, type PixCharge } from '@portal/contract';
import { pixAutomaticMessages } from '@portal/domain';
import { IconQrcode, IconRepeat } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { formatCurrencyInput } from '../../components/ui/currency';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { clearBuyBalance, getBuyFormVisible, getBuyPix, getBuyValue, setBuyFormVisible, setBuyPix, setBuyValue } from '../../lib/storage';
import { useBuyBalance } from './api/credit';
import { buyForm, type BuyFormInput, type BuyFormValues } from './buyForm';
import { PixChargePanel } from './PixChargePanel';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

/** Founding decision 16: toasts top-center on /saldo/*. */
const position = 'top-center' as const;

/** The server's 422 field names (spec §7 payload) on the form's fields. */
const SERVER_FIELDS = { valor: 'valor' } as const;

interface Restored {
  value: string;
  charge: PixCharge | null;
}

/** Founding decision 6: the typed value, the Pix data and the 'form visible' flag survive a reload. */
function restore(): Restored {
  const value = formatCurrencyInput(getBuyValue() ?? '');
  const parsed = pixCharge.safeParse(getBuyPix());
  const charge = parsed.success && !getBuyFormVisible() ? parsed.data : null;
  return { value, charge };
}

/** Decision 58: the recurring top-up by Pix Automático, one tap away from buying once. */
function AutomaticTopUpLink() {
  return (
    <Paper component="section" aria-labelledby="recarga-automatica" withBorder p={{ base: 'md', sm: 'lg' }} radius="lg">
      <Stack gap="xs">
        <Title order={2} size="h4" id="recarga-automatica">
          {pixAutomaticMessages.title}
        </Title>
        <Text size="sm" c="dark.7">
          Sem cartão de crédito: o saldo entra sozinho toda semana ou todo mês, pelo Pix Automático do seu banco.
        </Text>
        <Button component={Link} to="/saldo/recarga-automatica" variant="light" leftSection={<IconRepeat size={20} aria-hidden />}>
          Ver recarga automática
        </Button>
      </Stack>
    </Paper>
  );
}

/** spec §2 /saldo/comprar: 'Valor Saldo' and 'Comprar', then the Pix to pay (see PixChargePanel). */
export function BuyBalancePage() {
  usePageTitle('Comprar Saldo');
  const [initial] = useState(restore);
  const [charge, setCharge] = useState<PixCharge | null>(initial.charge);
  const buy = useBuyBalance();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { isSubmitting },
  } = useForm<BuyFormInput, unknown, BuyFormValues>({
    resolver: zodResolver(buyForm),
    defaultValues: { valor: initial.value },
  });

  const onSubmit = handleSubmit(async ({ valor }) => {
    try {
      const created = await buy.mutateAsync(valor);
      // The typed value is already stored (on every change); the Pix and the flag join it.
      setBuyPix(created);
      setBuyFormVisible(false);
      setCharge(created);
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS, position);
    }
  });

  /** 'Gerar novo Pix': back to an empty form, stored data cleared (spec §2, founding decision 6). */
  const startOver = () => {
    clearBuyBalance();
    setCharge(null);
    reset({ valor: '' });
    window.setTimeout(() => setFocus('valor'), 0);
  };

  return (
    <FormPage>
      <Title order={1}>Comprar Saldo</Title>
      {charge ? null : <OfflineNotice />}
      {charge ? (
        <PixChargePanel charge={charge} onNewPix={startOver} />
      ) : (
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
          <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label="Comprar saldo">
            <Stack gap="md">
              <Text>Informe o valor de saldo que deseja comprar. Você vai pagar com Pix.</Text>
              <ControlledCurrencyInput
                control={control}
                name="valor"
                onValueChange={setBuyValue}
                label="Valor Saldo"
                description="Mínimo R$ 100,00"
                size="lg"
              />
              <NetworkSubmitButton loading={isSubmitting} leftSection={<IconQrcode size={22} aria-hidden />}>
                Comprar
              </NetworkSubmitButton>
            </Stack>
          </PrerenderedForm>
        </Paper>
      )}
      {charge ? null : <AutomaticTopUpLink />}
    </FormPage>
  );
}
