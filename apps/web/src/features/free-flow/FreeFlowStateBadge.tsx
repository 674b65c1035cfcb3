import { freeFlowStateLabels, type FreeFlowState } from '@portal/domain';
import { IconAlertOctagon, IconCircleCheck, IconCircleX, IconClockHour4, type Icon } from '@tabler/icons-react';
import { TintedBadge } from '../../components/ui/TintedBadge';

/** Dark ink on a pale tint, or white on a dark fill (readable in sunlight), each with its icon: never colour alone. */
const looks: Record<FreeFlowState, { bg: string; c: string; Icon: Icon; state: string }> = {
  EM_ABERTO: { bg: 'road.0', c: 'road.9', Icon: IconClockHour4, state: 'em-aberto' },
  PAGO: { bg: 'sign.8', c: 'white', Icon: IconCircleCheck, state: 'pago' },
  VENCIDO: { bg: 'red.8', c: 'white', Icon: IconAlertOctagon, state: 'vencido' },
  CANCELADO: { bg: 'gray.7', c: 'white', Icon: IconCircleX, state: 'cancelado' },
};

/** A free-flow toll's state: 'Em aberto', 'Pago', 'Vencido', 'Cancelado pela concessionária'. */
export function FreeFlowStateBadge({ estado }: { estado: FreeFlowState }) {
  const { bg, c, Icon, state } = looks[estado];
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={false} variant="filled" data={{ 'data-state': state }}>
      {freeFlowStateLabels[estado]}
    </TintedBadge>
  );
}
