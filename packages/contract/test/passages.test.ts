import { messages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { api, PASSAGE_BATCH_MAX } from '../src/index.js';

const passage = () => ({
  externalId: 'p-1',
  serialNumber: '6032 0000 1111 0001',
  placeName: ' Praça Itupeva ',
  value: 18.9,
  occurredAt: new Date(Date.now() - 60_000).toISOString(),
});

/** Decision 55: the batch reads each item through the single call's schema, and never fails for one item. */
describe('passagens em lote', () => {
  const body = api.partnerPassageBatch.body;

  it('an item is the single call body, parsed the same way (trimmed, is_third defaulted)', () => {
    const one = passage();
    expect(body.parse({ passagens: [one] }).passagens).toEqual([{ ok: true, passage: api.partnerPassage.body.parse(one) }]);
  });

  it("an invalid item keeps the single call's issues instead of failing the batch", () => {
    const single = api.partnerPassage.body.safeParse({ ...passage(), value: -1 });
    expect(single.success).toBe(false);
    const parsed = body.parse({ passagens: [{ ...passage(), value: -1 }, passage()] });
    expect(parsed.passagens[0]).toEqual({ ok: false, issues: single.error?.issues, externalId: 'p-1' });
    expect(parsed.passagens[1]?.ok).toBe(true);
    expect(body.parse({ passagens: [42] }).passagens[0]).toMatchObject({ ok: false, externalId: null });
  });

  it('1 to PASSAGE_BATCH_MAX items, in an object; the messages say so', () => {
    const messageOf = (value: unknown) => body.safeParse(value).error?.issues[0]?.message;
    expect(messageOf({ passagens: [] })).toBe(messages.partner.batchSize);
    expect(messageOf({ passagens: Array.from({ length: PASSAGE_BATCH_MAX + 1 }, passage) })).toBe(messages.partner.batchSize);
    expect(body.safeParse({ passagens: Array.from({ length: PASSAGE_BATCH_MAX }, passage) }).success).toBe(true);
    for (const value of [[passage()], { passagens: 'x' }, {}, null]) expect(messageOf(value)).toBe(messages.partner.batchInvalid);
    expect(messages.partner.batchSize).toContain(PASSAGE_BATCH_MAX.toLocaleString('pt-BR'));
  });
});
