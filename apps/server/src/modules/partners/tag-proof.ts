import type { Refusal } from '@portal/domain';
import { refuse, serverMessages, TAG_STATUS } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import type { SerialHolder } from '../tags/rows.js';
import { serialHolder } from '../tags/rows.js';

/**
 * The active tag a partner's push names (founding decision 24), for passages and VPOs alike. A serial the
 * partner does not prove it knows (unknown, or known but failing `belongs`: another operator's
 * tag, another vehicle's plate) gets the one refusal `unproven`, so that no answer tells which
 * serials exist or whose they are. Only a proven tag's state is told: 409 when it is not active.
 */
export async function provenActiveTag(
  trx: Trx,
  serial: string,
  belongs: (tag: SerialHolder) => boolean,
  unproven: () => Refusal,
): Promise<SerialHolder> {
  const tag = await serialHolder(trx, serial);
  if (!tag || !belongs(tag)) throw unproven();
  if (tag.status !== TAG_STATUS.active) throw refuse.conflict(serverMessages.partner.tagNotActive);
  return tag;
}
