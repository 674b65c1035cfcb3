import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute } from './utils';

type User = ReturnType<typeof renderRoute>['user'];

async function fill(user: User, values: Partial<Record<'name' | 'cpf' | 'phone' | 'password' | 'confirmation', string>>) {
  const name = await screen.findByLabelText('Nome completo');
  if (values.name) await user.type(name, values.name);
  if (values.cpf) await user.type(screen.getByLabelText('CPF/CNPJ'), values.cpf);
  if (values.phone) await user.type(screen.getByLabelText('Telefone'), values.phone);
  if (values.password) await user.type(screen.getByLabelText('Senha'), values.password);
  if (values.confirmation) await user.type(screen.getByLabelText('Confirmação de senha'), values.confirmation);
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Criar conta' }));

describe('/registrar', () => {
  it('shows breadcrumb, back button and the required-field messages of the domain', async () => {
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
    expect(api.fetchMock).not.toHaveBeenCalled();
    expect(document.title).toBe('Criar conta | Portal do Motorista');
  });

  it('rejects an invalid CPF, a short phone and a different confirmation', async () => {
    mockApi({});
    const { user } = renderRoute('/registrar');
    await fill(user, { name: 'Maria da Silva', cpf: '11111111111', phone: '1198765', password: 'segredo123', confirmation: 'segredo124' });
    await submit(user);
    expect(await screen.findByText('CPF inválido')).toBeInTheDocument();
    expect(screen.getByText('Número de telefone inválido')).toBeInTheDocument();
    expect(screen.getByText('As senhas não coincidem')).toBeInTheDocument();
    expect(screen.queryByText('Por favor digite seu nome completo')).not.toBeInTheDocument();
  });

  it('reads more than 11 characters as a CNPJ', async () => {
    mockApi({});
    const { user } = renderRoute('/registrar');
    await fill(user, { cpf: '11222333000100' });
    await submit(user);
    expect(await screen.findByText('CNPJ inválido')).toBeInTheDocument();
    expect(screen.getByLabelText('CPF/CNPJ')).toHaveValue('11.222.333/0001-00');
  });

  it('lists the server messages under each field (422)', async () => {
    mockApi({
      'POST /api/user/create-user': {
        status: 422,
        body: {
          Sucesso: false,
          Mensagem: 'Não foi possível criar sua conta. Confira os campos destacados.',
          errors: { cpfCnpj: ['Este CPF/CNPJ já está cadastrado'], phoneNumber: ['Número de telefone inválido'] },
        },
      },
    });
    const { user } = renderRoute('/registrar');
    await fill(user, { name: 'Maria da Silva', cpf: '52998224725', phone: '11987654321', password: 'segredo123', confirmation: 'segredo123' });
    await submit(user);
    expect(await screen.findByText('Este CPF/CNPJ já está cadastrado')).toBeInTheDocument();
    expect(screen.getByLabelText('CPF/CNPJ')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Telefone')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Número de telefone inválido')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Confira os campos destacados');
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
    await fill(user, { name: '  Maria   da Silva ', cpf: '52998224725', phone: '11987654321', password: 'segredo123', confirmation: 'segredo123' });
    expect(screen.getByLabelText('Telefone')).toHaveValue('(11) 98765-4321');
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
