import { screen, waitFor, within } from '@testing-library/react';
import { INVOICE_GROUP_CODE, messages, TAG_ORIGEM } from '@portal/domain';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { TagStatusBadge } from '../src/components/ui/TagStatusBadge';
import { mockApi, ok, renderRoute, renderWithProviders, signInStorage, type MockReply } from './utils';

const TAGGY = '11111111000111';
const SEMPARAR = '22222222000122';
const operators = {
  'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'Taggy', Cnpj: TAGGY }, { Nome: 'SemParar', Cnpj: SEMPARAR }] }),
  'GET /api/veiculo/modelos': ok({
    Data: [
      { brand: 'Volvo', modelos: [{ modelId: 'volvo-fh540', modelName: 'FH 540' }] },
      { brand: 'Scania', modelos: [{ modelId: 'scania-r450', modelName: 'R 450' }] },
    ],
  }),
  'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
};

const vehicle = (tag: Record<string, unknown> | null) => ({
  id: 9,
  LicensePlate: 'ABC1D23',
  CpfCnpjAntt: '52998224725',
  RntrcAntt: '123456789',
  Axles: 3,
  vehicleType: 2,
  modelo: 'volvo-fh540',
  tag: tag && { serialNumber: '1234567812345678', Operadora: SEMPARAR, statusCode: 201, ownershipType: 'own', ...tag },
});

function openDetail(tag: Record<string, unknown> | null, extra: Record<string, MockReply | ((c: never) => MockReply)> = {}) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({ ...operators, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: vehicle(tag) }), ...extra });
  return { ...renderRoute('/tags/detalhes/ABC1D23'), api };
}

beforeEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

describe('TagStatusBadge', () => {
  it.each([
    [100, 'Ativa'],
    [200, 'Bloqueada'],
    [204, 'Bloqueada'],
    [210, 'Bloqueada'],
    [296, 'Bloqueada'],
    [201, 'Inativa'],
    [null, 'Inativa'],
    [300, 'Cancelada'],
    [302, 'Cancelada'],
    [999, 'Cancelada'],
  ])('code %s shows %s', (code, label) => {
    renderWithProviders(<TagStatusBadge code={code} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});

describe('/tags/adicionar', () => {
  it('shows the messages of SPEC 5 in order, masks the serial and upper-cases the plate, then sends the payload', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...operators, 'POST /api/tag/cadastrar-tag': { status: 201, body: { Sucesso: true, Mensagem: 'Sucesso!' } } });
    const { user, router } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'SemParar' }, { timeout: 5000 });
    await screen.findByRole('option', { name: 'FH 540' });

    await user.click(screen.getByRole('button', { name: 'Cadastrar' }));
    const form = screen.getByRole('form', { name: 'Cadastrar Tag' });
    const spec = [
      messages.tag.serialRequired,
      messages.tag.operatorRequired,
      messages.tag.plateRequired,
      messages.tag.axlesRequired,
      messages.tag.modelRequired,
    ];
    const text = form.textContent ?? '';
    const positions = spec.map((m) => text.indexOf(m));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(screen.getByLabelText('Número da Tag')).toHaveFocus();

    await user.type(screen.getByLabelText('Número da Tag'), '12345678123456789999');
    expect(screen.getByLabelText('Número da Tag')).toHaveValue('1234 5678 1234 5678');
    await user.selectOptions(screen.getByLabelText('Operadora'), 'SemParar');
    await user.type(screen.getByLabelText('Placa do Veículo'), 'abc1d23');
    expect(screen.getByLabelText('Placa do Veículo')).toHaveValue('ABC1D23');
    await user.type(screen.getByLabelText('CPF/CNPJ da ANTT'), '52998224725');
    expect(screen.getByLabelText('CPF/CNPJ da ANTT')).toHaveValue('529.982.247-25');
    await user.type(screen.getByLabelText('RNTRC da ANTT'), '12a3456789');
    expect(screen.getByLabelText('RNTRC da ANTT')).toHaveValue('123456789');
    await user.selectOptions(screen.getByLabelText('Eixos'), '2');
    await user.selectOptions(screen.getByLabelText('Modelo'), 'FH 540');
    await user.click(screen.getByRole('button', { name: 'Cadastrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/detalhes/ABC1D23'));
    expect(api.callsTo('POST', '/api/tag/cadastrar-tag')[0]?.body).toEqual({
      serialNumber: '1234567812345678',
      Operadora: SEMPARAR,
      licensePlate: 'ABC1D23',
      cnpj: '52998224725',
      invoiceGroupCode: INVOICE_GROUP_CODE,
      vehicleType: 1,
      axles: 2,
      CpfCnpjAntt: '52998224725',
      RntrcAntt: '123456789',
      modelo: 'volvo-fh540',
    });
    expect(await screen.findByText('Sucesso!')).toBeInTheDocument();
  }, 20_000);

  it('warns about Taggy Greenpass serials and refuses them', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(operators);
    const { user } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'Taggy' });
    await user.selectOptions(screen.getByLabelText('Operadora'), 'Taggy');
    await user.type(screen.getByLabelText('Número da Tag'), '56661234');
    expect(await screen.findByText(messages.tag.greenpassWarning)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText(messages.tag.greenpassRefused)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/cadastrar-tag')).toHaveLength(0);
  });

  it('puts the server 422 messages under their fields', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...operators,
      'POST /api/tag/cadastrar-tag': {
        status: 409,
        body: { Sucesso: false, Mensagem: messages.tag.plateHasTag, errors: { licensePlate: [messages.tag.plateHasTag] } },
      },
    });
    const { user } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'FH 540' });
    await user.type(screen.getByLabelText('Número da Tag'), '1234567812345678');
    await user.selectOptions(screen.getByLabelText('Operadora'), 'SemParar');
    await user.type(screen.getByLabelText('Placa do Veículo'), 'ABC1D23');
    await user.type(screen.getByLabelText('CPF/CNPJ da ANTT'), '52998224725');
    await user.type(screen.getByLabelText('RNTRC da ANTT'), '123456789');
    await user.selectOptions(screen.getByLabelText('Eixos'), '3');
    await user.selectOptions(screen.getByLabelText('Modelo'), 'R 450');
    await user.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText(messages.tag.plateHasTag)).toBeInTheDocument();
    expect(screen.getByLabelText('Placa do Veículo')).toHaveAccessibleDescription(messages.tag.plateHasTag);
  }, 20_000);
});

const button = (name: string) => screen.getByRole('button', { name });

describe('/tags/detalhes/:licensePlate', () => {
  it('an inactive tag can be activated, edited, cancelled and deleted; block, release and replace explain why not', async () => {
    openDetail({ statusCode: 201 });
    expect(await screen.findByText('1234 5678 1234 5678')).toBeInTheDocument();
    expect(await screen.findByText('Volvo FH 540')).toBeInTheDocument();
    expect(screen.getByText('529.982.247-25')).toBeInTheDocument();
    expect(button('Ativar')).toBeEnabled();
    expect(button('Cancelar')).toBeEnabled();
    expect(button('Excluir')).toBeEnabled();
    expect(button('Bloquear')).toBeDisabled();
    expect(button('Bloquear')).toHaveAccessibleDescription(messages.tag.cannotBlock);
    expect(button('Liberar')).toHaveAccessibleDescription(messages.tag.cannotRelease);
    expect(button('Substituir')).toHaveAccessibleDescription(messages.tag.cannotReplace);
    expect(screen.getByRole('link', { name: 'Editar' })).toHaveAttribute('href', '/tags/editar/ABC1D23');
    expect(screen.getByText(/debita a mensalidade de/)).toHaveTextContent(/R\$\s15,90/);
  });

  it('an active tag can be blocked, replaced and cancelled; not activated, released, edited or deleted', async () => {
    openDetail({ statusCode: 100 });
    await screen.findByText('1234 5678 1234 5678');
    for (const name of ['Bloquear', 'Substituir', 'Cancelar']) expect(button(name)).toBeEnabled();
    for (const name of ['Ativar', 'Liberar', 'Excluir']) expect(button(name)).toBeDisabled();
    expect(button('Excluir')).toHaveAccessibleDescription(messages.tag.cannotRemove);
    expect(screen.queryByRole('link', { name: 'Editar' })).not.toBeInTheDocument();
  });

  it('a blocked tag can be released; a cancelled one only deleted', async () => {
    openDetail({ statusCode: 200 });
    await screen.findByText('1234 5678 1234 5678');
    expect(button('Liberar')).toBeEnabled();
    expect(button('Bloquear')).toBeDisabled();
  });

  it('an operator tag that is not Taggy 5666 shows why and no actions', async () => {
    openDetail({ statusCode: 100, ownershipType: 'operator' });
    expect(await screen.findByText(messages.tag.whyNotManageable)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bloquear' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
  });

  it('a Taggy 5666 operator tag is manageable and shows the 60-second warning', async () => {
    openDetail({ statusCode: 100, ownershipType: 'operator', Operadora: TAGGY, serialNumber: '5666123412341234' });
    expect(await screen.findByText(messages.tag.greenpassWarning)).toBeInTheDocument();
    expect(button('Bloquear')).toBeEnabled();
  });

  it('asks before blocking and sends SPEC 7 payload only when confirmed', async () => {
    const { user, api } = openDetail({ statusCode: 100 }, { 'POST /api/tag/bloquear': ok({ Mensagem: messages.tag.blocked }) });
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Bloquear'));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/tag/bloquear')).toHaveLength(0);

    await user.click(button('Bloquear'));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Bloquear' }));
    expect(await screen.findByText(messages.tag.blocked)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/bloquear')[0]?.body).toEqual({
      serialNumber: '1234567812345678',
      statusId: '200',
      origem: TAG_ORIGEM,
    });
  });

  it('asks before cancelling; shows the server Mensagem under the error title', async () => {
    const { user, api } = openDetail(
      { statusCode: 100 },
      { 'POST /api/tag/cancelar': { status: 409, body: { Sucesso: false, Mensagem: messages.tag.cannotCancel } } },
    );
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Cancelar'));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/tag/cancelar')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar tag' }));
    expect(await screen.findByText(messages.tag.cannotCancel)).toBeInTheDocument();
    expect(screen.getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/cancelar')[0]?.body).toEqual({ serialNumber: '1234567812345678', statusId: '300', origem: TAG_ORIGEM });
  });

  it('asks before deleting, then goes back to the list', async () => {
    const { user, api, router } = openDetail(
      { statusCode: 300 },
      { 'POST /api/veiculo/delete-tag-vehicle': ok({ Mensagem: messages.tag.removed }), 'GET /api/tag/listar': ok({ Tags: [], Paginacao: { TotalPaginas: 0 } }) },
    );
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Excluir'));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/veiculo/delete-tag-vehicle')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/listar'));
    expect(await screen.findByText('Exclusão de Tag/Veículo')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/veiculo/delete-tag-vehicle')[0]?.body).toEqual({ serialNumber: '1234567812345678' });
  });

  it('validates the new serial before replacing', async () => {
    const { user, api } = openDetail({ statusCode: 100 }, { 'POST /api/tag/substituir': ok({ Mensagem: messages.tag.replaced }) });
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Substituir'));
    const dialog = await screen.findByRole('dialog', { name: 'Substituir tag' });
    await user.type(within(dialog).getByLabelText('Número da nova Tag'), 'ab12');
    await user.click(within(dialog).getByRole('button', { name: 'Substituir' }));
    expect(await within(dialog).findByText(messages.tag.replaceSerialInvalid)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/substituir')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Número da nova Tag'), 'cd3456');
    expect(within(dialog).getByLabelText('Número da nova Tag')).toHaveValue('AB12 CD34 56');
    await user.click(within(dialog).getByRole('button', { name: 'Substituir' }));
    expect(await screen.findByText(messages.tag.replaced)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/substituir')[0]?.body).toEqual({ serialNumber: '1234567812345678', newSerialNumber: 'AB12CD3456' });
  }, 15_000);

  it('a plate that is not the driver\'s shows "Veículo não encontrado" and a link back', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ ...operators, 'GET /api/veiculo/detail/ABC1D23': { status: 404, body: { Sucesso: false, Mensagem: messages.vehicle.notFound } } });
    renderRoute('/tags/detalhes/ABC1D23');
    expect(await screen.findByText(messages.vehicle.notFound)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Voltar para Tags' }).length).toBeGreaterThan(0);
  });
});
