import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../src/lib/queryClient';
import { mockApi, ok, renderRoute } from '../../support/utils';

beforeAll(async () => {
  await import('../../../src/features/free-flow/VerifyProofPage');
});

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => queryClient.clear());

const CODE = 'PDM-7F3A-91C2-0B4D';

/** GET /api/verificar/:codigo's facts of a free-flow toll's proof: tag active at the passage, paid from Saldo. */
const facts = {
  codigo: CODE,
  tipo: 'PEDAGIO_SEM_CANCELA',
  placa: 'ABC1D23',
  titular: 'Maria da Silva',
  documentoMascarado: '***.982.247-**',
  momento: '2026-03-05T15:04:05Z',
  local: 'Pórtico Itaguaí P1, BR-101 km 414,5',
  valor: 12.34,
  tag: { serialNumber: '1234567812345678', operadora: 'SemParar', ativaDesde: '2026-01-10T13:00:00Z', ativaNoMomento: true },
  saldoNoMomento: 250,
  pagamento: { pagoEm: '2026-03-06T12:00:00Z', pagoPor: 'Saldo', autenticacao: 'AUT-778899' },
  emitidoEm: '2026-03-07T10:00:00Z',
};

describe('/verificar/:codigo, public (decision 76)', () => {
  it('shows the facts of an authentic proof to someone not signed in, asking without a token', async () => {
    const api = mockApi({ [`GET /api/verificar/${CODE}`]: ok({ Comprovante: facts }) });
    renderRoute(`/verificar/${CODE}`);
    expect(await screen.findByRole('heading', { name: 'Verificação de comprovante', level: 1 })).toBeInTheDocument();
    expect(document.title).toBe('Verificação de comprovante | Portal do Motorista');
    expect(await screen.findByText('Comprovante autêntico: o código confere')).toBeInTheDocument();
    const field = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(field('Tipo')).toHaveTextContent('Pedágio sem cancela');
    expect(field('Placa')).toHaveTextContent('ABC1D23');
    expect(field('Titular')).toHaveTextContent('Maria da Silva');
    expect(field('CPF/CNPJ')).toHaveTextContent('***.982.247-**');
    expect(field('Data e hora')).toHaveTextContent('05/03/2026 12:04:05');
    expect(field('Local')).toHaveTextContent('Pórtico Itaguaí P1, BR-101 km 414,5');
    expect(field('Valor')).toHaveTextContent('R$ 12,34');
    expect(field('Saldo disponível no momento')).toHaveTextContent('R$ 250,00');
    expect(field('Tag')).toHaveTextContent('1234567812345678');
    expect(field('Operadora')).toHaveTextContent('SemParar');
    expect(field('Ativa desde')).toHaveTextContent('10/01/2026 10:00:00');
    expect(field('Ativa no momento da passagem')).toHaveTextContent('Sim');
    expect(field('Pago em')).toHaveTextContent('06/03/2026 09:00:00');
    expect(field('Pago com')).toHaveTextContent('Saldo');
    expect(field('Autenticação')).toHaveTextContent('AUT-778899');
    expect(field('Emitido em')).toHaveTextContent('07/03/2026 07:00:00');
    const [call] = api.callsTo('GET', `/api/verificar/${CODE}`);
    expect(call?.headers.authorization).toBeUndefined();
    // Not sent to /login: the page is for whoever holds the proof.
    expect(screen.queryByRole('button', { name: 'Entrar' })).not.toBeInTheDocument();
  });

  it('a passage proof without a payment or tag says so', async () => {
    mockApi({ [`GET /api/verificar/${CODE}`]: ok({ Comprovante: { ...facts, tipo: 'PASSAGEM', tag: null, pagamento: null } }) });
    renderRoute(`/verificar/${CODE}`);
    await screen.findByText('Comprovante autêntico: o código confere');
    expect(screen.getByText('Passagem da tag')).toBeInTheDocument();
    expect(screen.getByText('Nenhuma tag no veículo no momento')).toBeInTheDocument();
    expect(screen.getByText('Não pago pelo portal')).toBeInTheDocument();
  });

  it("a code that does not match (404): 'Comprovante não encontrado: o código não confere', no facts", async () => {
    mockApi({
      'GET /api/verificar/PDM-ALTERADO': { status: 404, body: { Sucesso: false, Mensagem: 'Comprovante não encontrado' } },
    });
    renderRoute('/verificar/PDM-ALTERADO');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Comprovante não encontrado: o código não confere')).toBeInTheDocument();
    expect(screen.queryByText('Comprovante autêntico: o código confere')).not.toBeInTheDocument();
    expect(screen.queryByText('Titular')).not.toBeInTheDocument();
  });

  it("another failure says it could not verify now, with 'Tentar novamente'", async () => {
    let calls = 0;
    mockApi({
      [`GET /api/verificar/${CODE}`]: () => {
        calls += 1;
        return calls === 1 ? { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } } : ok({ Comprovante: facts });
      },
    });
    const { user } = renderRoute(`/verificar/${CODE}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível verificar o comprovante agora.');
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Comprovante autêntico: o código confere')).toBeInTheDocument();
  });
});
