// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmAction } from '../../src/components/ui/confirm';
import { toast } from '../../src/components/ui/toast';
import { mockApi, ok, renderRoute, signInStorage } from '../support/utils';
import { catalogue, vehicle } from '../support/vehicle';
import { forgetKeptData } from '../support/keptData';

/** The confirmation dialog (components/ui/confirm.tsx): its way back is 'Voltar' (issue 25, decision 59). */

beforeAll(async () => {
  await Promise.all([
    import('../../src/app/AuthenticatedShell'),
    import('../../src/app/routes/DashboardRoute'),
    import('../../src/features/tags/TagDetailPage'),
  ]);
});

afterEach(forgetKeptData);

/** The dashboard of a signed-in driver, drawn: the shell that mounts the confirmations and the toasts. */
async function openDashboard() {
  signInStorage({ terms: 'aceito' });
  mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 1, SaldoTerceiro: 0 }) });
  const rendered = renderRoute('/dashboard');
  await screen.findByRole('heading', { name: 'Painel' });
  return rendered;
}

describe("item 5: a dialog goes back with 'Voltar', never 'Cancelar' (a tag action's word)", () => {
  it('every confirmation, by default', async () => {
    const { user } = await openDashboard();
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = confirmAction({ title: 'Excluir veículo', message: 'Excluir o veículo ABC1D23?', confirmLabel: 'Excluir', danger: true });
    });
    const dialog = await screen.findByRole('dialog', { name: 'Excluir veículo' });
    expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await expect(answer).resolves.toBe(false);
  });

  it("the tag's delete dialog", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: { ...vehicle, tag: { ...vehicle.tag, statusCode: 201 } } }) });
    const { user } = renderRoute('/tags/detalhes/ABC1D23');
    await user.click(await screen.findByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir tag' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).not.toContain('Cancelar');
    expect(within(dialog).getByRole('button', { name: 'Voltar' })).toBeInTheDocument();
  });
});

describe('dialogs and toasts are mounted by the app only when needed (decision 65)', () => {
  it("no dialog's portal is in the page before one is asked for; one confirmation answers once and leaves", async () => {
    const { user } = await openDashboard();
    expect(document.querySelector('.mantine-Modal-root')).toBeNull();
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = confirmAction({ title: 'Bloquear tag', message: 'Bloquear a tag?' });
    });
    const dialog = await screen.findByRole('dialog', { name: 'Bloquear tag' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirmar' });
    await user.click(confirm);
    await user.click(confirm).catch(() => undefined);
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Bloquear tag' })).not.toBeInTheDocument());
  });

  it('two confirmations asked together are answered each on its own', async () => {
    const { user } = await openDashboard();
    let first: Promise<boolean> | undefined;
    let second: Promise<boolean> | undefined;
    act(() => {
      first = confirmAction({ title: 'Primeira', message: 'Uma' });
      second = confirmAction({ title: 'Segunda', message: 'Outra' });
    });
    await user.click(within(await screen.findByRole('dialog', { name: 'Segunda' })).getByRole('button', { name: 'Voltar' }));
    await expect(second).resolves.toBe(false);
    await user.click(within(await screen.findByRole('dialog', { name: 'Primeira' })).getByRole('button', { name: 'Confirmar' }));
    await expect(first).resolves.toBe(true);
  });

  it('a toast asked for as the page starts shows once its container is there', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 1, SaldoTerceiro: 0 }) });
    renderRoute('/dashboard');
    toast.success('Tag bloqueada.');
    expect(await screen.findByText('Tag bloqueada.')).toBeInTheDocument();
  });
});
