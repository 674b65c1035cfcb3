import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, type MockReply } from '../../support/utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/auth/RegisterPage';

type User = ReturnType<typeof renderRoute>['user'];
type Field = 'Nome completo' | 'CPF/CNPJ' | 'Telefone' | 'Senha' | 'Confirmação de senha';

/** Pastes each value (the masks format a paste like typing). */
async function fill(user: User, values: Partial<Record<Field, string>>) {
  await screen.findByLabelText('Nome completo');
  for (const [label, value] of Object.entries(values)) {
    await user.click(screen.getByLabelText(label));
    await user.paste(value);
  }
}

const valid: Record<Field, string> = {
  'Nome completo': 'Maria da Silva',
  'CPF/CNPJ': '52998224725',
  Telefone: '11987654321',
  Senha: 'segredo123',
  'Confirmação de senha': 'segredo123',
};

/** spec §5 'Registration': every message a field can show. */
const SPEC_MESSAGES = [
  'Por favor digite seu nome completo',
  'Por favor insira seu CPF ou CNPJ',
  'CPF inválido',
  'CNPJ inválido',
  'Por favor insira seu telefone',
  'Número de telefone inválido',
  'Digite uma senha de pelo menos 8 caracteres',
  'As senhas não coincidem',
];

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Criar conta' }));

describe('/registrar', () => {
  it('shows breadcrumb, back button and the required-field messages of spec §5', async () => {
    const api = mockApi({});
    const { user } = renderRoute('/registrar');
    expect(await screen.findByRole('heading', { name: 'Criar conta' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Voltar' })).toHaveAttribute('href', '/login');
    await submit(user);
    expect(await screen.findByText('Por favor digite seu nome completo')).toBeInTheDocument();
    expect(screen.getByText('Por favor insira seu CPF ou CNPJ')).toBeInTheDocument();
    expect(screen.getByText('Por favor insira seu telefone')).toBeInTheDocument();
    expect(screen.getByText('Digite uma senha de pelo menos 8 caracteres')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Nome completo')).toHaveFocus());
    expect(api.fetchMock).not.toHaveBeenCalled();
    expect(document.title).toBe('Criar conta | Portal do Motorista');
  });

  it.each<[string, Partial<Record<Field, string>>, Field, string]>([
    ['a name under 5 characters', { 'Nome completo': 'Ana' }, 'Nome completo', 'Por favor digite seu nome completo'],
    ['a CPF of one repeated digit', { 'CPF/CNPJ': '11111111111' }, 'CPF/CNPJ', 'CPF inválido'],
    ['more than 11 characters read as a CNPJ', { 'CPF/CNPJ': '11222333000100' }, 'CPF/CNPJ', 'CNPJ inválido'],
    ['a phone under 11 digits', { Telefone: '1198765' }, 'Telefone', 'Número de telefone inválido'],
    [
      'a password under 8 characters',
      { Senha: 'curta', 'Confirmação de senha': 'curta' },
      'Senha',
      'Digite uma senha de pelo menos 8 caracteres',
    ],
    ['a different confirmation', { 'Confirmação de senha': 'segredo124' }, 'Confirmação de senha', 'As senhas não coincidem'],
  ])('refuses %s, on its field only', async (_case, change, field, message) => {
    const api = mockApi({});
    const { user } = renderRoute('/registrar');
    await fill(user, { ...valid, ...change });
    await submit(user);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText(field)).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(SPEC_MESSAGES.filter((text) => screen.queryByText(text))).toEqual([message]);
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('masks a CNPJ and a phone', async () => {
    mockApi({});
    const { user } = renderRoute('/registrar');
    await fill(user, { 'CPF/CNPJ': '11222333000100', Telefone: '11987654321' });
    expect(screen.getByLabelText('CPF/CNPJ')).toHaveValue('11.222.333/0001-00');
    expect(screen.getByLabelText('Telefone')).toHaveValue('(11) 98765-4321');
  });

  it('a CPF already registered is said once, under the field, which gets the focus', async () => {
    const taken: MockReply = {
      status: 422,
      body: { Sucesso: false, Mensagem: 'Este CPF/CNPJ já está cadastrado', errors: { cpfCnpj: ['Este CPF/CNPJ já está cadastrado'] } },
    };
    mockApi({ 'POST /api/user/create-user': taken });
    const { user } = renderRoute('/registrar');
    await fill(user, valid);
    await submit(user);
    expect(await screen.findByText('Este CPF/CNPJ já está cadastrado')).toBeInTheDocument();
    expect(screen.getAllByText('Este CPF/CNPJ já está cadastrado')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('CPF/CNPJ')).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.getByLabelText('CPF/CNPJ')).toHaveFocus());
  });

  it('lists the server messages under each field (422), and in an alert those of no field', async () => {
    mockApi({
      'POST /api/user/create-user': {
        status: 422,
        body: {
          Sucesso: false,
          Mensagem: 'Não foi possível criar sua conta. Confira os campos destacados.',
          errors: {
            cpfCnpj: ['Este CPF/CNPJ já está cadastrado'],
            phoneNumber: ['Número de telefone inválido'],
            type: ['Tipo de usuário inválido'],
          },
        },
      },
    });
    const { user } = renderRoute('/registrar');
    await fill(user, valid);
    await submit(user);
    expect(await screen.findByText('Este CPF/CNPJ já está cadastrado')).toBeInTheDocument();
    expect(screen.getByLabelText('Telefone')).toHaveAccessibleDescription('Número de telefone inválido');
    expect(screen.getByRole('alert')).toHaveTextContent('Tipo de usuário inválido');
  });

  it("shows the server's message when the refusal names no field", async () => {
    mockApi({
      'POST /api/user/create-user': {
        status: 429,
        body: { Sucesso: false, Mensagem: 'Muitas requisições. Aguarde um pouco e tente novamente.' },
      },
    });
    const { user } = renderRoute('/registrar');
    await fill(user, valid);
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Muitas requisições. Aguarde um pouco e tente novamente.');
  });

  it("creates the account with type 'driver' and the phone as +55, then opens the dashboard", async () => {
    const api = mockApi({
      'POST /api/user/create-user': ok({
        Token: 'token-novo',
        User: { id: 9, name: 'Maria da Silva', cpfCnpj: '52998224725', phoneNumber: '+5511987654321' },
      }),
      'GET /api/motorista/saldo': ok({ Saldo: 0, SaldoTerceiro: 0 }),
    });
    const { user, router } = renderRoute('/registrar');
    await fill(user, { ...valid, 'Nome completo': '  Maria   da Silva ' });
    await submit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/user/create-user')[0]?.body).toEqual({
      name: 'Maria da Silva',
      cpfCnpj: '52998224725',
      phoneNumber: '+5511987654321',
      password: 'segredo123',
      password_confirmation: 'segredo123',
      type: 'driver',
    });
    expect(localStorage.getItem('token')).toBe('token-novo');
    expect(JSON.parse(localStorage.getItem('user_data') ?? 'null')).toEqual({ id: 9, name: 'Maria da Silva', cpfCnpj: '52998224725' });
    expect(localStorage.getItem('aceite_termo')).toBe('inexistente');
  });
});
