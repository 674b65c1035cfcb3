import type { MemberState } from '@portal/domain';
import { memberStateLabels } from '@portal/domain';
import { IconCircleCheck, IconCircleX, IconHourglassHigh, IconUserMinus, type Icon } from '@tabler/icons-react';
import { TintedBadge } from '../../components/ui/TintedBadge';

/** Dark ink on a pale tint, or white on a dark fill: readable in sunlight; each state with its own icon. */
const looks: Record<MemberState, { bg: string; c: string; Icon: Icon }> = {
  convidado: { bg: 'road.0', c: 'road.9', Icon: IconHourglassHigh },
  ativo: { bg: 'sign.8', c: 'white', Icon: IconCircleCheck },
  recusado: { bg: 'gray.7', c: 'white', Icon: IconCircleX },
  removido: { bg: 'gray.7', c: 'white', Icon: IconUserMinus },
};

/** A member's state: 'Convite enviado', 'Ativo', 'Convite recusado', 'Removido'. */
export function MemberStateBadge({ estado }: { estado: MemberState }) {
  const { bg, c, Icon } = looks[estado];
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={false} variant="filled" data={{ 'data-member-state': estado }} size="sm">
      {memberStateLabels[estado]}
    </TintedBadge>
  );
}
