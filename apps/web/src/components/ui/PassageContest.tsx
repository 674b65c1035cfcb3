import { Button } from '@mantine/core';
import type { PassageContestInfo } from '@portal/contract';
import { IconMessageReport } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTimeOrNull } from '../../lib/format';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { ContestDialog, type ContestedPassage } from './ContestDialog';
import { ContestStateBadge, DuplicateFlagBadge } from './ContestBadge';
import { PassageProofButton } from './PassageProofButton';
import { contestTexts } from '@portal/domain';
import classes from './PassageContest.module.css';

interface PassageContestProps {
  info: PassageContestInfo;
  /** How the screen shows the passage (the dialog shows it the same way). */
  passage: Omit<ContestedPassage, 'id' | 'possivelDuplicada'>;
  /** 'table' (a statement's cell: on phones on the right) or 'start' (always from the left). */
  align?: 'table' | 'start';
}

/**
 * Decision 56: a passage's contest where the passage is shown (a statement row, a VPO's passage):
 * its newest contest's state, 'Possível cobrança duplicada' while a flagged passage is not
 * contested, and 'Contestar' while it can be (disabled offline, saying why). Decision 76: and, for
 * every passage, its 'Comprovante para recurso'.
 */
export function PassageContest({ info, passage, align = 'table' }: PassageContestProps) {
  const online = useOnline();
  const [opened, setOpened] = useState(false);
  const flagged = info.possivelDuplicada && info.contestacao === null;
  const when = formatDateTimeOrNull(passage.dataPassagem) ?? '';
  return (
    <div className={[classes.block, align === 'table' && classes.table].filter(Boolean).join(' ')} data-passagem={info.id}>
      {info.contestacao ? <ContestStateBadge estado={info.contestacao.estado} atrasada={info.contestacao.atrasada} /> : null}
      {flagged ? <DuplicateFlagBadge /> : null}
      {info.contestavel ? (
        <>
          <Button
            size="compact-md"
            variant="light"
            leftSection={<IconMessageReport size={18} aria-hidden />}
            disabled={!online}
            aria-describedby={online ? undefined : OFFLINE_REASON_ID}
            aria-label={contestTexts.actionName(passage.praca, when)}
            onClick={(event) => {
              event.stopPropagation();
              setOpened(true);
            }}
          >
            {contestTexts.action}
          </Button>
          <ContestDialog
            passage={{ ...passage, id: info.id, possivelDuplicada: info.possivelDuplicada }}
            opened={opened}
            onClose={() => setOpened(false)}
          />
        </>
      ) : null}
      <PassageProofButton passageId={info.id} place={passage.praca} when={when} />
    </div>
  );
}
