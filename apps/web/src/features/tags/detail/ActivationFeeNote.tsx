import { Text } from '@mantine/core';
import { TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { Money } from '../../../components/ui/Money';
import { useBalance } from '../../../lib/balance';

/** spec §9: activating debits the monthly fee; the balance beside it, when known. */
export function ActivationFeeNote() {
  const balance = useBalance().data?.Saldo;
  return (
    <Text size="sm">
      A ativação debita a mensalidade de <Money cents={TAG_MONTHLY_FEE_CENTS} fw={700} /> do seu saldo
      {balance !== undefined ? (
        <>
          {' '}
          (saldo atual: <Money reais={balance} fw={700} />)
        </>
      ) : null}
      .
    </Text>
  );
}
