import type { PartnerVpoRequest } from '@portal/contract';
import type { Db } from '../../db/connection.js';
import type { VpoService } from '../vpos/service.js';
import { issueRequest, vpoIssue } from '../vpos/service.js';
import type { Partner } from './keys.js';
import type { PushAnswer } from './pushes.js';
import { PartnerPushes } from './pushes.js';

/** A shipper's VPOs as pushes: each issue idempotent on its externalId (the same request, the same answer). */
export class VpoPushes {
  constructor(
    db: Db,
    private readonly vpos: VpoService,
    private readonly pushes: PartnerPushes = new PartnerPushes(db),
  ) {}

  issue(partner: Partner, input: PartnerVpoRequest): Promise<PushAnswer> {
    const issue = vpoIssue(input);
    return this.pushes.push(partner, 'vpo', input.externalId, issueRequest(issue), (trx) => this.vpos.issue(trx, partner, issue));
  }
}
