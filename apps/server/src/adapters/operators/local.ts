import { canActivate, canCancel, canRelease, canRemove, canReplace, messages, serverMessages, TAG_STATUS, tagState } from '@portal/domain';
import { nowIso } from '../../db/connection.js';
import { OperatorRefusal } from './port.js';
import type { OperatorContext, OperatorRegistration, TagOperatorGateway } from './port.js';

/**
 * The operator side kept in our database (table operator_tags), with the operator's own rules and
 * status codes (spec §4, founding decision 12). Conditional updates make each change a compare-and-set, so
 * two concurrent calls on one serial cannot both pass.
 */
export class LocalTagOperatorGateway implements TagOperatorGateway {
  readonly name = 'local';

  async register({ trx }: OperatorContext, tag: OperatorRegistration): Promise<number | null> {
    // Held, or cancelled for good: the same answer either way, nothing about the holder.
    if ((await this.status({ trx }, tag.serialNumber)) !== undefined) throw new OperatorRefusal(serverMessages.tag.serialUnavailable);
    await trx
      .insertInto('operator_tags')
      .values({
        serial_number: tag.serialNumber,
        operator_cnpj: tag.operatorCnpj,
        status_code: tag.ownership === 'operator' ? TAG_STATUS.inactive : null,
        license_plate: tag.licensePlate,
        holder_document: tag.holderDocument,
        updated_at: nowIso(),
      })
      .execute();
    return tag.ownership === 'operator' ? TAG_STATUS.inactive : null;
  }

  activate(ctx: OperatorContext, serial: string): Promise<number | null> {
    return this.transition(ctx, serial, canActivate, TAG_STATUS.active, messages.tag.cannotActivate);
  }

  block(ctx: OperatorContext, serial: string, code: 200 | 204): Promise<number | null> {
    return this.transition(ctx, serial, (c) => c === TAG_STATUS.active, code, messages.tag.cannotBlock);
  }

  release(ctx: OperatorContext, serial: string): Promise<number | null> {
    return this.transition(ctx, serial, canRelease, TAG_STATUS.active, messages.tag.cannotRelease);
  }

  /**
   * A serial never activated is a registration withdrawn: the operator forgets it, so whoever
   * really holds that tag can register it (issue 8). Once activated, a cancelled serial is
   * cancelled for good.
   */
  async cancel(ctx: OperatorContext, serial: string): Promise<number | null> {
    const { status_code: from } = await this.row(ctx, serial);
    if (tagState(from) !== 'inactive') {
      return this.transition(ctx, serial, canCancel, TAG_STATUS.cancelledByDriver, messages.tag.cannotCancel);
    }
    const deleted = await ctx.trx
      .deleteFrom('operator_tags')
      .where('serial_number', '=', serial)
      .where((eb) => (from === null ? eb('status_code', 'is', null) : eb('status_code', '=', from)))
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw new OperatorRefusal(messages.tag.cannotCancel);
    return TAG_STATUS.cancelledByDriver;
  }

  async replace({ trx }: OperatorContext, serial: string, newSerial: string): Promise<number | null> {
    const row = await this.row({ trx }, serial);
    if (!canReplace(row.status_code)) throw new OperatorRefusal(messages.tag.cannotReplace);
    if ((await this.status({ trx }, newSerial)) !== undefined) throw new OperatorRefusal(serverMessages.tag.serialUnavailable);
    await this.transition({ trx }, serial, canReplace, TAG_STATUS.cancelledByReplacement, messages.tag.cannotReplace);
    await trx
      .insertInto('operator_tags')
      .values({ ...row, serial_number: newSerial, updated_at: nowIso() })
      .execute();
    return row.status_code;
  }

  async remove({ trx }: OperatorContext, serial: string): Promise<void> {
    const row = await this.row({ trx }, serial);
    if (!canRemove(row.status_code)) throw new OperatorRefusal(messages.tag.cannotRemove);
    // A cancelled serial stays cancelled at the operator (it can never be registered again).
    if (tagState(row.status_code) === 'inactive') {
      await trx.deleteFrom('operator_tags').where('serial_number', '=', serial).execute();
    }
  }

  async status({ trx }: OperatorContext, serial: string): Promise<number | null | undefined> {
    const row = await trx.selectFrom('operator_tags').select('status_code').where('serial_number', '=', serial).executeTakeFirst();
    return row ? row.status_code : undefined;
  }

  private async row({ trx }: OperatorContext, serial: string) {
    const row = await trx.selectFrom('operator_tags').selectAll().where('serial_number', '=', serial).executeTakeFirst();
    if (!row) throw new OperatorRefusal(serverMessages.tag.notFound, 'not-found');
    return row;
  }

  /** Compare-and-set from the status read now; a concurrent change makes it refuse. */
  private async transition(
    { trx }: OperatorContext,
    serial: string,
    allowed: (code: number | null) => boolean,
    to: number,
    refusal: string,
  ): Promise<number> {
    const { status_code: from } = await this.row({ trx }, serial);
    if (!allowed(from)) throw new OperatorRefusal(refusal);
    const updated = await trx
      .updateTable('operator_tags')
      .set({ status_code: to, updated_at: nowIso() })
      .where('serial_number', '=', serial)
      .where((eb) => (from === null ? eb('status_code', 'is', null) : eb('status_code', '=', from)))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new OperatorRefusal(refusal);
    return to;
  }
}
