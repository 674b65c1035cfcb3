import type { VpoPassage } from '@portal/contract';
import { messages, statementKindLabels } from '@portal/domain';
import { IconAlertTriangle, IconFileInvoice } from '@tabler/icons-react';
import { TintedBadge } from './TintedBadge';

type VpoPayer = VpoPassage['pagoPor'];

/** Dark ink on a pale tint (over 9:1 both): readable in sunlight; the Saldo one also carries a warning icon. */
const looks = {
  VPO: { bg: 'road.0', c: 'road.9', Icon: IconFileInvoice },
  SALDO: { bg: 'yellow.1', c: 'dark.8', Icon: IconAlertTriangle },
} as const;

/** 'VPO de {shipper}', or 'VPO' when the shipper's name did not come. */
const shipperLabel = (shipper: string) => (shipper ? messages.vpo.shipperBadge.replace('{shipper}', shipper) : statementKindLabels.vpo);

/**
 * Decision 52: who paid a movement of a VPO's trip. The VPO's money ('Paga pelo VPO', or in the
 * statement, where the entry's text already says what it was, 'VPO de {shipper}'), or Saldo because
 * the VPO ran short ('VPO insuficiente: paga do seu saldo'). Shared by the statement's rows, the
 * dashboard's last movements and 'Detalhes do VPO'.
 */
export function VpoPayerBadge({ pagoPor, shipper }: { pagoPor: VpoPayer; shipper?: string }) {
  const { bg, c, Icon } = looks[pagoPor];
  const label = pagoPor === 'SALDO' ? messages.vpo.paidBySaldo : shipper === undefined ? messages.vpo.paidByVpo : shipperLabel(shipper);
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={pagoPor === 'SALDO'} variant="light" data={{ 'data-paid-by': pagoPor }}>
      {label}
    </TintedBadge>
  );
}
