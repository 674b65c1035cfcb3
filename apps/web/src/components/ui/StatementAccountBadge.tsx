import type { StatementAccountRef } from '@portal/contract';
import { statementAccountName } from '@portal/domain';
import { IconFileInvoice, IconUsers, IconWallet } from '@tabler/icons-react';
import { TintedBadge } from './TintedBadge';

/** Dark ink on a pale tint (over 7:1 each): the driver's Saldo, the other platforms' balance, a shipper's VPO. */
const looks = {
  SALDO: { bg: 'gray.1', c: 'dark.8', Icon: IconWallet },
  SALDO_TERCEIRO: { bg: 'grape.0', c: 'grape.9', Icon: IconUsers },
  VPO: { bg: 'road.0', c: 'road.9', Icon: IconFileInvoice },
} as const;

/**
 * Issue 33: whose money a statement row moved ('Saldo', 'Saldo em outras plataformas', 'VPO de
 * <embarcador>: <rota>'), a small tinted badge under the row's text; its 'Saldo após' is that account's.
 */
export function StatementAccountBadge({ conta }: { conta: StatementAccountRef }) {
  const { bg, c, Icon } = looks[conta.tipo];
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={false} variant="light" size="sm" data={{ 'data-account': conta.tipo }}>
      {statementAccountName(conta.tipo, conta.embarcador, conta.rota)}
    </TintedBadge>
  );
}
