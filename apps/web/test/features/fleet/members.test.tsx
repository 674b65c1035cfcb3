import 'fake-indexeddb/auto';
import { fleetMessages, messages } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memberRow, mockApi, ok, renderRoute, signInStorage, type RecordedCall } from '../../support/utils';
import { accountLine, accounts, chooseCompanyStorage, COMPANY_ID, COMPANY_NAME, companyAccount, ownAccount } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/fleet/MembersPage')]);
});

afterEach(forgetKeptData);

const members = [
  memberRow({ id: 1, voce: true }),
  memberRow({ id: 2, nome: 'João Souza', cpf: '***.444.777-**', papel: 'motorista', placas: ['ABC1D23', 'XYZ9K88'] }),
  memberRow({ id: 3, nome: null, cpf: '***.111.222-**', papel: 'financeiro', estado: 'convidado', desde: null }),
];

/** The server's answer to a role changed (its words as fleetMessages.roleChanged writes them). */
const roleChanged = ok({ Mensagem: 'Papel alterado para Gestor.', Membro: memberRow({ id: 2, papel: 'gestor' }) });

function openMembers(extra: Record<string, unknown> = {}) {
  signInStorage({ terms: 'aceito' });
  chooseCompanyStorage('gestor');
  const api = mockApi({
    'GET /api/contas': accounts(ownAccount, companyAccount('gestor')),
    'GET /api/empresa/membros': ok({ Membros: members }),
    ...extra,
  });
  return { api, ...renderRoute('/empresa/membros') };
}

const sentForCompany = (call: RecordedCall | undefined) => expect(call?.headers['x-conta']).toBe(String(COMPANY_ID));

describe('decision 77 /empresa/membros', () => {
  it('lists members and invitations: name or "Aguardando aceite", masked CPF, role, state, plates, "você"', async () => {
    const { api } = openMembers();
    expect(await screen.findByText('João Souza')).toBeInTheDocument();
    expect(accountLine()).toHaveTextContent(`Conta: ${COMPANY_NAME} · Gestor`);
    sentForCompany(api.callsTo('GET', '/api/empresa/membros')[0]);

    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Maria da Silva');
    expect(within(rows[0]!).getByText('você')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('***.444.777-**');
    expect(rows[1]).toHaveTextContent('ABC1D23');
    expect(rows[1]).toHaveTextContent('XYZ9K88');
    expect(rows[1]).toHaveTextContent('Ativo');
    expect(within(rows[1]!).getByRole('combobox', { name: 'Papel de João Souza' })).toHaveValue('motorista');
    expect(rows[2]).toHaveTextContent('Aguardando aceite');
    expect(rows[2]).toHaveTextContent('Convite enviado');
    expect(within(rows[2]!).getByRole('button', { name: 'Cancelar o convite do CPF ***.111.222-**' })).toBeInTheDocument();
  });

  it('invites by CPF: an invalid CPF is said under its field and nothing is sent; a valid one goes with the role', async () => {
    const { api, user } = openMembers({
      'POST /api/empresa/membros': ok({
        Mensagem: fleetMessages.invited,
        Membro: memberRow({ id: 4, nome: null, cpf: '***.982.247-**', papel: 'financeiro', estado: 'convidado' }),
      }),
    });
    const form = within(await screen.findByRole('region', { name: 'Convidar pessoa' }));
    const cpf = form.getByLabelText('CPF de quem vai usar o portal');
    const role = form.getByLabelText('Papel');

    await user.selectOptions(role, 'financeiro');
    // What the role may do, under the select.
    expect(role).toHaveAccessibleDescription(/Comprar crédito, extrato/);
    await user.type(cpf, '11111111111');
    await user.click(form.getByRole('button', { name: 'Enviar convite' }));
    expect(await form.findByText(messages.registration.cpfInvalid)).toBeInTheDocument();
    expect(cpf).toHaveAccessibleDescription(messages.registration.cpfInvalid);
    expect(cpf).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/empresa/membros')).toHaveLength(0);

    await user.clear(cpf);
    await user.type(cpf, '52998224725');
    expect(cpf).toHaveValue('529.982.247-25');
    await user.click(form.getByRole('button', { name: 'Enviar convite' }));
    expect(await screen.findByText(fleetMessages.invited)).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/membros');
    expect(sent?.body).toEqual({ cpf: '52998224725', papel: 'financeiro' });
    sentForCompany(sent);
    // The form starts over; the list is read again.
    await waitFor(() => expect(cpf).toHaveValue(''));
    await waitFor(() => expect(api.callsTo('GET', '/api/empresa/membros').length).toBeGreaterThan(1));
  });

  it('a role is required, and the server’s field message goes under its field', async () => {
    const { api, user } = openMembers({
      'POST /api/empresa/membros': {
        status: 422,
        body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { cpf: [fleetMessages.inviteSelf] } },
      },
    });
    const form = within(await screen.findByRole('region', { name: 'Convidar pessoa' }));
    await user.type(form.getByLabelText('CPF de quem vai usar o portal'), '52998224725');
    await user.click(form.getByRole('button', { name: 'Enviar convite' }));
    expect(await form.findByText('Escolha o papel: Gestor, Financeiro ou Motorista')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/membros')).toHaveLength(0);

    await user.selectOptions(form.getByLabelText('Papel'), 'gestor');
    await user.click(form.getByRole('button', { name: 'Enviar convite' }));
    expect(await form.findByText(fleetMessages.inviteSelf)).toBeInTheDocument();
    expect(form.getByLabelText('CPF de quem vai usar o portal')).toHaveAccessibleDescription(fleetMessages.inviteSelf);
  });

  it("changes a member's role with its select: sent at once, the server's Mensagem in a toast", async () => {
    const { api, user } = openMembers({ 'POST /api/empresa/membros/2/papel': roleChanged });
    const select = await screen.findByRole('combobox', { name: 'Papel de João Souza' });
    await user.selectOptions(select, 'gestor');
    expect(await screen.findByText('Papel alterado para Gestor.')).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/membros/2/papel');
    expect(sent?.body).toEqual({ papel: 'gestor' });
    sentForCompany(sent);
  });

  it('the last Gestor: the server refuses, its words in a toast, the role unchanged', async () => {
    const { user } = openMembers({
      'POST /api/empresa/membros/1/papel': { status: 409, body: { Sucesso: false, Mensagem: fleetMessages.lastGestor } },
    });
    const select = await screen.findByRole('combobox', { name: 'Papel de Maria da Silva' });
    await user.selectOptions(select, 'motorista');
    expect(await screen.findByText(fleetMessages.lastGestor)).toBeInTheDocument();
    await waitFor(() => expect(select).toHaveValue('gestor'));
  });

  it('removes a member only after the confirmation; an invitation is cancelled the same way', async () => {
    const { api, user } = openMembers({
      'DELETE /api/empresa/membros/2': ok({ Mensagem: fleetMessages.removed }),
      'DELETE /api/empresa/membros/3': ok({ Mensagem: fleetMessages.invitationCancelled }),
    });
    await user.click(await screen.findByRole('button', { name: 'Remover João Souza' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remover João Souza? O acesso dele à empresa termina na hora.');
    // 'Voltar' keeps the member.
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/empresa/membros/2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remover João Souza' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText(fleetMessages.removed)).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/api/empresa/membros/2')).toHaveLength(1);
    sentForCompany(api.callsTo('DELETE', '/api/empresa/membros/2')[0]);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Cancelar o convite do CPF ***.111.222-**' }));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Cancelar o convite do CPF ***.111.222-**?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar convite' }));
    expect(await screen.findByText(fleetMessages.invitationCancelled)).toBeInTheDocument();
  });

  it('is not offered to a Financeiro: the page says why and asks the server nothing', async () => {
    signInStorage({ terms: 'aceito' });
    chooseCompanyStorage('financeiro');
    const api = mockApi({ 'GET /api/contas': accounts(ownAccount, companyAccount('financeiro')) });
    renderRoute('/empresa/membros');
    expect(await screen.findByText('Página do Gestor da empresa')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar ao painel' })).toHaveAttribute('href', '/dashboard');
    expect(api.callsTo('GET', '/api/empresa/membros')).toHaveLength(0);
  });
});
