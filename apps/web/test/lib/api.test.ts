import { api } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { request } from '../../src/lib/api';
import { mockApi, ok, signInStorage } from '../support/utils';

/** Lets every promise settled so far run its continuation, and no timer. */
const microtasksDrained = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const settings = ok({ Preferencias: { nivelAlertaSaldo: 80 } });

describe('the app calls the API', () => {
  it('leaves each read for a task of its own, not the pass that asked for it', async () => {
    // A screen starts all its reads in one pass of effects (eight on /configuracoes): with every fetch()
    // in that pass, it was one long task on a slow phone.
    signInStorage();
    const mock = mockApi({ 'GET /api/motorista/preferencias': settings });
    const reads = [request(api.settings), request(api.settings), request(api.settings)];
    await microtasksDrained();
    expect(mock.fetchMock).not.toHaveBeenCalled();

    const answers = await Promise.all(reads);
    expect(answers.map((answer) => answer.Preferencias.nivelAlertaSaldo)).toEqual([80, 80, 80]);
    expect(mock.callsTo('GET', '/api/motorista/preferencias')).toHaveLength(3);
  });

  it("sends a driver's change at once", async () => {
    signInStorage();
    const mock = mockApi({ 'POST /api/motorista/preferencias': settings });
    const saved = request(api.updateSettings, { body: { nivelAlertaSaldo: 80 } });
    await microtasksDrained();
    expect(mock.callsTo('POST', '/api/motorista/preferencias')).toHaveLength(1);
    await expect(saved).resolves.toMatchObject({ Preferencias: { nivelAlertaSaldo: 80 } });
  });
});
