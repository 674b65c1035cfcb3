import type { Refusal } from '@portal/domain';
import { refuse, serverMessages, TAG_STATUS } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import type { SerialHolder } from './queries.js';
import { serialHolder } from './queries.js';

/**
 * The tag a partner's push names (founding decision 24), for passages and VPOs alike. A serial the
 * partner does not prove it knows (unknown, or known but failing `belongs`: another operator's
 * tag, another vehicle's plate) gets the one refusal `unproven`, so that no answer tells which
 * serials exist or whose they are. Only a proven tag's state is told: 409 when it is neither
 * active nor, where `blockedForFee` allows it, blocked for an unpaid fee (decision 52: the fee
 * never stands between a tag and its VPO).
 */
export async function provenTag(
  trx: Trx,
  serial: string,
  belongs: (tag: SerialHolder) => boolean,
  unproven: () => Refusal,
  blockedForFee: 'refused' | 'accepted' = 'refused',
): Promise<SerialHolder> {
  const tag = await serialHolder(trx, serial);
  if (!tag || !belongs(tag)) throw unproven();
  const feeBlocked = tag.status === TAG_STATUS.blockedUnpaidFee && blockedForFee === 'accepted';
  if (tag.status !== TAG_STATUS.active && !feeBlocked) throw refuse.conflict(serverMessages.partner.tagNotActive);
  return tag;
}
