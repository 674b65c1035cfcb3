import { contestStateLabels, type ContestState, contestTexts } from '@portal/domain';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconClockExclamation, IconHourglassHigh, type Icon } from '@tabler/icons-react';
import { TintedBadge } from './TintedBadge';

type ContestLook = 'ABERTA' | 'ATRASADA' | 'ACEITA' | 'RECUSADA' | 'DUPLICADA';

/** Dark ink on a pale tint, or white on a dark fill: readable in sunlight; each with its own icon. */
const looks: Record<ContestLook, { bg: string; c: string; Icon: Icon; label: string; state: string }> = {
  ABERTA: { bg: 'road.0', c: 'road.9', Icon: IconHourglassHigh, label: contestStateLabels.ABERTA, state: 'aberta' },
  ATRASADA: { bg: 'red.8', c: 'white', Icon: IconClockExclamation, label: contestTexts.overdue, state: 'atrasada' },
  ACEITA: { bg: 'sign.8', c: 'white', Icon: IconCircleCheck, label: contestStateLabels.ACEITA, state: 'aceita' },
  RECUSADA: { bg: 'gray.7', c: 'white', Icon: IconCircleX, label: contestStateLabels.RECUSADA, state: 'recusada' },
  DUPLICADA: { bg: 'yellow.1', c: 'dark.8', Icon: IconAlertTriangle, label: contestTexts.flagged, state: 'duplicada' },
};

function LookBadge({ look }: { look: ContestLook }) {
  const { bg, c, Icon, label, state } = looks[look];
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={look === 'DUPLICADA'} variant="filled" data={{ 'data-state': state }}>
      {label}
    </TintedBadge>
  );
}

/** Decision 56: a contest's state: 'Em análise', 'Resposta atrasada' (open past its due date), 'Aceita', 'Recusada'. */
export function ContestStateBadge({ estado, atrasada }: { estado: ContestState; atrasada: boolean }) {
  return <LookBadge look={estado === 'ABERTA' && atrasada ? 'ATRASADA' : estado} />;
}

/** Decision 56: a passage flagged on arrival as a possible double charge of an earlier one. */
export function DuplicateFlagBadge() {
  return <LookBadge look="DUPLICADA" />;
}
