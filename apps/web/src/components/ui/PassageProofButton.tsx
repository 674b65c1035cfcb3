import { Button } from '@mantine/core';
import { IconFileCertificate } from '@tabler/icons-react';
import { usePassageProof } from '../../lib/freeFlow';
import { freeFlowTexts } from '../../lib/freeFlowTexts';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import classes from './PassageProofButton.module.css';
import { toastFailure } from './toastFailure';

/**
 * Decision 76: 'Comprovante para recurso' of a tag passage (GET /api/passagens/:id/comprovante-recurso):
 * a PDF with a verification code, saved under the server's name; needs the network (disabled offline, saying why).
 */
export function PassageProofButton({ passageId, place, when }: { passageId: number; place: string; when: string }) {
  const online = useOnline();
  const proof = usePassageProof();
  return (
    <Button
      size="compact-md"
      variant="subtle"
      classNames={{ root: classes.root, label: classes.label }}
      leftSection={<IconFileCertificate size={18} aria-hidden />}
      loading={proof.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      aria-label={freeFlowTexts.passageProofName(place, when)}
      onClick={(event) => {
        event.stopPropagation();
        proof.mutate(passageId, { onError: (error) => toastFailure(error) });
      }}
    >
      {freeFlowTexts.passageProof}
    </Button>
  );
}
