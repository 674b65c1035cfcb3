// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { formatBrl, messages, serverMessages, TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from '../../support/utils';
import { forgetKeptData } from '../../support/keptData';

/** /dashboard: a balance below zero, said in words (issue 25, decision 59). */

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/app/routes/DashboardRoute')]);
});

afterEach(forgetKeptData);

/** A text as the testing library reads it (formatBrl writes a no-break space after R$). */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('item 8: a negative balance says that it is negative, and what it means for the next passage', () => {
  const negative = { tipo: 'saldo-negativo', Mensagem: serverMessages.attention.negativeBalance('-R$ 12,30', 'R$ 15,90'), saldo: -12.3 };

  function openDashboard(Saldo: number, Avisos: unknown[]) {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': ok({ Avisos, UltimasMovimentacoes: [] }),
    });
    return renderRoute('/dashboard');
  }

  it('a notice of its own, in words, with Comprar saldo; the balance is marked negativo', async () => {
    openDashboard(-12.3, [negative]);
    const region = await screen.findByRole('region', { name: 'Avisos' });
    const [line] = within(region).getAllByRole('listitem');
    expect(line).toHaveTextContent(plain(`Saldo negativo: ${formatBrl(-1230)}`));
    expect(line).toHaveTextContent(plain(messages.attention.negativeBalanceMeaning(formatBrl(TAG_MONTHLY_FEE_CENTS))));
    expect(line).toHaveTextContent('a próxima passagem ainda é debitada');
    expect(line).not.toHaveTextContent('Saldo abaixo do alerta');
    expect(within(line!).getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');

    const balance = screen.getByRole('heading', { name: /Saldo de pedágio/ });
    await waitFor(() => expect(balance).toHaveTextContent('Saldo de pedágionegativo'));
    expect(screen.getByText(plain(formatBrl(-1230)))).toBeInTheDocument();
  });

  it('a balance at zero or above carries no mark', async () => {
    openDashboard(0, []);
    expect(await screen.findAllByText(plain(formatBrl(0)))).toHaveLength(2);
    expect(screen.getByRole('heading', { name: /Saldo de pedágio/ })).toHaveTextContent(/^Saldo de pedágio$/);
  });
});
