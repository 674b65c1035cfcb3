import { act, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { formatBrl, INVOICE_GROUP_CODE, messages, TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TagStatusBadge } from '../../../src/components/ui/TagStatusBadge';
import { GreenpassWarning } from '../../../src/features/tags/GreenpassWarning';
import { mockApi, ok, renderRoute, renderWithProviders, signInStorage, type MockReply } from '../../support/utils';
import { SEMPARAR, vehicle } from '../../support/vehicle';

const TAGGY = '11111111000111';
const catalogue = {
  'GET /api/operadoras': ok({
    Operadoras: [
      { Nome: 'Taggy', Cnpj: TAGGY },
      { Nome: 'SemParar', Cnpj: SEMPARAR },
    ],
  }),
  'GET /api/veiculo/modelos': ok({
    Data: [
      { brand: 'Volvo', modelos: [{ modelId: 'volvo-fh540', modelName: 'FH 540' }] },
      { brand: 'Scania', modelos: [{ modelId: 'scania-r450', modelName: 'R 450' }] },
    ],
  }),
  'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
};

const GREENPASS_WARNING =
  'Atenção: as tags Greenpass da Taggy (iniciadas em 5666) estão sendo canceladas e devem ser substituídas por tags MoveMais. Entre em contato com o suporte.';

type Handlers = Record<string, MockReply | ((call: never) => MockReply)>;

/** The support vehicle, its tag active (201) unless `tag` says otherwise, or with no tag. */
const vehicleWith = (tag: Record<string, unknown> | null) => ({
  ...vehicle,
  tag: tag && { ...vehicle.tag, statusCode: 201, ...tag },
});

function open(path: string, tag: Record<string, unknown> | null, extra: Handlers = {}) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: vehicleWith(tag) }), ...extra });
  return { ...renderRoute(path), api };
}
const openDetail = (tag: Record<string, unknown> | null, extra: Handlers = {}) => open('/tags/detalhes/ABC1D23', tag, extra);

const button = (name: string) => screen.getByRole('button', { name });

/** Unmasked fields take the text at once (a paste), as a driver's phone keyboard suggestion would. */
async function paste(user: ReturnType<typeof renderRoute>['user'], label: string, text: string) {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

// Load the lazy screens once, before the clocks of the tests start.
beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/tags/TagRegisterPage'),
    import('../../../src/features/tags/TagDetailPage'),
    import('../../../src/features/tags/TagEditPage'),
    import('../../../src/features/tags/TagsListPage'),
  ]);
});

beforeEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

describe('TagStatusBadge', () => {
  it.each([
    { code: 100, label: 'Ativa' },
    { code: 200, label: 'Bloqueada' },
    { code: 204, label: 'Bloqueada' },
    { code: 210, label: 'Bloqueada' },
    { code: 296, label: 'Bloqueada' },
    { code: 201, label: 'Inativa' },
    { code: null, label: 'Inativa' },
    { code: 300, label: 'Cancelada' },
    { code: 302, label: 'Cancelada' },
    { code: 999, label: 'Cancelada' },
  ])('code $code shows $label', ({ code, label }) => {
    renderWithProviders(<TagStatusBadge code={code} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});

describe('/tags/adicionar', () => {
  it('shows the messages of spec §5 in order, masks the serial and upper-cases the plate, then sends the payload', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...catalogue, 'POST /api/tag/cadastrar-tag': { status: 201, body: { Sucesso: true, Mensagem: 'Sucesso!' } } });
    const { user, router } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'SemParar' });
    await screen.findByRole('option', { name: 'FH 540' });

    await user.click(button('Cadastrar'));
    const form = screen.getByRole('form', { name: 'Cadastrar Tag' });
    const spec = [
      'Por favor digite a Tag a ser ativada',
      'Por favor selecione a Operadora da Tag',
      'Por favor digite a Placa do veículo',
      'Por favor selecione o número de eixos',
      'Por favor selecione o modelo',
    ];
    await within(form).findByText(spec[0]!);
    const text = form.textContent ?? '';
    const positions = spec.map((m) => text.indexOf(m));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(screen.getByLabelText('Número da Tag')).toHaveFocus();

    await paste(user, 'Número da Tag', '12345678123456789999');
    expect(screen.getByLabelText('Número da Tag')).toHaveValue('1234 5678 1234 5678');
    await user.selectOptions(screen.getByLabelText('Operadora'), 'SemParar');
    await paste(user, 'Placa do Veículo', 'abc1d23');
    expect(screen.getByLabelText('Placa do Veículo')).toHaveValue('ABC1D23');
    await paste(user, 'CPF/CNPJ da ANTT', '52998224725');
    expect(screen.getByLabelText('CPF/CNPJ da ANTT')).toHaveValue('529.982.247-25');
    await paste(user, 'RNTRC da ANTT', '12a3456789');
    expect(screen.getByLabelText('RNTRC da ANTT')).toHaveValue('123456789');
    await user.selectOptions(screen.getByLabelText('Eixos'), '2');
    await user.selectOptions(screen.getByLabelText('Modelo'), 'FH 540');
    await user.click(button('Cadastrar'));

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
  });

  it('the serial hint agrees with its mask: the spaces come by themselves', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi(catalogue);
    const { user } = renderRoute('/tags/adicionar');
    const serial = await screen.findByLabelText('Número da Tag');
    expect(serial).toHaveAccessibleDescription('Os números impressos na tag; os espaços entram sozinhos');
    await paste(user, 'Número da Tag', '12345678');
    expect(serial).toHaveValue('1234 5678');
  });

  it('warns about Taggy Greenpass serials inside the form, saying Atenção once, and refuses them', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(catalogue);
    const { user } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'Taggy' });
    await user.selectOptions(screen.getByLabelText('Operadora'), 'Taggy');
    await paste(user, 'Número da Tag', '56661234');
    const form = screen.getByRole('form', { name: 'Cadastrar Tag' });
    const warning = await within(form).findByRole('alert');
    expect(warning).toHaveTextContent(GREENPASS_WARNING);
    expect(warning.textContent?.match(/Atenção/g)).toHaveLength(1);
    await user.click(button('Cadastrar'));
    expect(await screen.findByText('Não é possivel cadastrar tags Greenpass')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/cadastrar-tag')).toHaveLength(0);
  });

  it('puts the server 422 messages under their fields and focuses the first', async () => {
    const plateHasTag = 'Este veículo já possui uma tag. Cancele e exclua a tag atual antes de cadastrar outra.';
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...catalogue,
      'POST /api/tag/cadastrar-tag': {
        status: 409,
        body: { Sucesso: false, Mensagem: plateHasTag, errors: { licensePlate: [plateHasTag] } },
      },
    });
    const { user } = renderRoute('/tags/adicionar');
    await screen.findByRole('option', { name: 'FH 540' });
    await paste(user, 'Número da Tag', '1234567812345678');
    await user.selectOptions(screen.getByLabelText('Operadora'), 'SemParar');
    await paste(user, 'Placa do Veículo', 'ABC1D23');
    await paste(user, 'CPF/CNPJ da ANTT', '52998224725');
    await paste(user, 'RNTRC da ANTT', '123456789');
    await user.selectOptions(screen.getByLabelText('Eixos'), '3');
    await user.selectOptions(screen.getByLabelText('Modelo'), 'R 450');
    await user.click(button('Cadastrar'));
    await waitFor(() => expect(screen.getByLabelText('Placa do Veículo')).toHaveAccessibleDescription(plateHasTag));
    expect(screen.getByLabelText('Placa do Veículo')).toHaveFocus();
    expect(screen.getAllByText(plateHasTag)).toHaveLength(1);
  });
});

describe('GreenpassWarning', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stays 60 seconds (spec §9), then goes', () => {
    vi.useFakeTimers();
    renderWithProviders(<GreenpassWarning operatorName="Taggy" serial="5666123412341234" />);
    expect(screen.getByRole('alert')).toHaveTextContent(GREENPASS_WARNING);
    act(() => {
      vi.advanceTimersByTime(59_999);
    });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    { name: 'another operator', operator: 'SemParar', serial: '5666123412341234' },
    { name: 'another Taggy serial', operator: 'Taggy', serial: '1234567812345678' },
  ])('is not shown for $name', ({ operator, serial }) => {
    renderWithProviders(<GreenpassWarning operatorName={operator} serial={serial} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('/tags/detalhes/:licensePlate', () => {
  it('an inactive tag can be activated, edited, cancelled and deleted; block, release and replace explain why not', async () => {
    openDetail({ statusCode: 201 });
    expect(await screen.findByText('1234 5678 1234 5678')).toBeInTheDocument();
    expect(await screen.findByText('Volvo FH 540')).toBeInTheDocument();
    expect(button('Ativar')).toBeEnabled();
    expect(button('Cancelar')).toBeEnabled();
    expect(button('Excluir')).toBeEnabled();
    expect(button('Bloquear')).toBeDisabled();
    expect(button('Bloquear')).toHaveAccessibleDescription('Somente tags ativas podem ser bloqueadas');
    expect(button('Liberar')).toHaveAccessibleDescription(
      'Somente tags bloqueadas por você ou por mensalidade em aberto podem ser liberadas',
    );
    expect(button('Substituir')).toHaveAccessibleDescription('Não é possível substituir uma tag cancelada ou inativa');
    expect(screen.getByRole('link', { name: 'Editar' })).toHaveAttribute('href', '/tags/editar/ABC1D23');
    expect(screen.getByText(/debita a mensalidade de/)).toHaveTextContent(/R\$\s15,90/);
  });

  it('keeps the ANTT CPF/CNPJ on one line', async () => {
    openDetail({ statusCode: 201 });
    expect(await screen.findByText('529.982.247-25')).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it.each([
    { state: 'ativa', statusCode: 100 },
    { state: 'bloqueada', statusCode: 200 },
    { state: 'cancelada', statusCode: 300 },
  ])('a tag $state does not offer Editar and says why, naming its state', async ({ state, statusCode }) => {
    openDetail({ statusCode });
    await screen.findByText('1234 5678 1234 5678');
    expect(screen.queryByRole('link', { name: 'Editar' })).not.toBeInTheDocument();
    expect(button('Editar')).toBeDisabled();
    expect(button('Editar')).toHaveAccessibleDescription(`Esta tag está ${state}: somente tags inativas podem ser editadas`);
  });

  it('an active tag can be blocked, replaced and cancelled; not activated, released or deleted', async () => {
    openDetail({ statusCode: 100 });
    await screen.findByText('1234 5678 1234 5678');
    for (const name of ['Bloquear', 'Substituir', 'Cancelar']) expect(button(name)).toBeEnabled();
    for (const name of ['Ativar', 'Liberar', 'Excluir']) expect(button(name)).toBeDisabled();
    expect(button('Excluir')).toHaveAccessibleDescription('Cancele a tag antes de excluí-la');
  });

  it("a tag its vehicle's budget blocked says so, and what to do on the road (decision 78)", async () => {
    openDetail({ statusCode: 200, bloqueioOrcamento: true });
    expect(await screen.findByText('Tag bloqueada pelo orçamento')).toBeInTheDocument();
    expect(screen.getByText(/Só um Gestor da empresa libera a tag; até lá, pague as praças na cabine/)).toBeInTheDocument();
  });

  it('a blocked tag can be released', async () => {
    openDetail({ statusCode: 200 });
    await screen.findByText('1234 5678 1234 5678');
    expect(button('Liberar')).toBeEnabled();
    expect(button('Bloquear')).toBeDisabled();
  });

  it('an operator tag that is not Taggy 5666 shows why and no actions', async () => {
    openDetail({ statusCode: 100, ownershipType: 'operator' });
    expect(
      await screen.findByText(
        'Esta tag pertence à operadora. Somente tags próprias ou tags Taggy iniciadas em 5666 podem ser gerenciadas pelo portal.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bloquear' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
  });

  it('a Taggy 5666 operator tag is manageable and shows the warning in the tag card', async () => {
    openDetail({ statusCode: 100, ownershipType: 'operator', Operadora: TAGGY, serialNumber: '5666123412341234' });
    const card = await screen.findByRole('region', { name: 'Tag' });
    expect(await within(card).findByText(GREENPASS_WARNING)).toBeInTheDocument();
    expect(button('Bloquear')).toBeEnabled();
  });

  it.each([
    { state: 'inactive', statusCode: 201 },
    { state: 'active', statusCode: 100 },
    { state: 'blocked for the fee', statusCode: 204 },
  ])('a tag $state says, in its card, that VPO costs nothing on it (decision 53)', async ({ statusCode }) => {
    openDetail({ statusCode });
    const card = await screen.findByRole('region', { name: 'Tag' });
    const note = within(card).getByText(messages.tag.vpoFree);
    // A calm note, not an alert: nothing is announced.
    expect(note.closest('[role="alert"]')).toBeNull();
  });

  it('a cancelled tag does not', async () => {
    openDetail({ statusCode: 300 });
    const card = await screen.findByRole('region', { name: 'Tag' });
    expect(within(card).queryByText(messages.tag.vpoFree)).not.toBeInTheDocument();
  });

  it("asks before blocking and sends spec §7 payload only when confirmed; 'Voltar' goes back (issue 25: never 'Cancelar', a tag action)", async () => {
    const { user, api } = openDetail({ statusCode: 100 }, { 'POST /api/tag/bloquear': ok({ Mensagem: 'Tag bloqueada com sucesso!' }) });
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Bloquear'));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/tag/bloquear')).toHaveLength(0);

    await user.click(button('Bloquear'));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Bloquear' }));
    expect(await screen.findByText('Tag bloqueada com sucesso!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/bloquear')[0]?.body).toEqual({
      serialNumber: '1234567812345678',
      statusId: '200',
      origem: 'Pedagio motorista',
    });
  });

  it('asks before cancelling; shows the server Mensagem under the error title', async () => {
    const { user, api } = openDetail(
      { statusCode: 100 },
      { 'POST /api/tag/cancelar': { status: 409, body: { Sucesso: false, Mensagem: 'Esta tag já está cancelada' } } },
    );
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Cancelar'));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/tag/cancelar')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar tag' }));
    expect(await screen.findByText('Esta tag já está cancelada')).toBeInTheDocument();
    expect(screen.getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/cancelar')[0]?.body).toEqual({
      serialNumber: '1234567812345678',
      statusId: '300',
      origem: 'Pedagio motorista',
    });
  });

  it('an unsuccessful 200 answer shows its error under the error title (spec §8)', async () => {
    const short = 'Saldo insuficiente para ativar a tag. Compre créditos e tente novamente.';
    const { user } = openDetail(
      { statusCode: 201 },
      { 'POST /api/tag/ativar-tag-motorista': ok({ Sucesso: false, Mensagem: 'Não foi possível ativar', error: short }) },
    );
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Ativar'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Ativar tag' })).getByRole('button', { name: 'Ativar' }));
    expect(await screen.findByText(short)).toBeInTheDocument();
    expect(screen.getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    expect(screen.queryByText('Tag ativada com sucesso!')).not.toBeInTheDocument();
  });

  it("'Ativar' asks first, with the price and what it is; 'Voltar' charges nothing", async () => {
    const { user, api } = openDetail(
      { statusCode: 201 },
      { 'POST /api/tag/ativar-tag-motorista': ok({ Mensagem: messages.tag.activated }) },
    );
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Ativar'));
    const dialog = await screen.findByRole('dialog', { name: 'Ativar tag' });
    expect(dialog).toHaveTextContent(
      `Ativar a tag 1234 5678 1234 5678${messages.tag.activateQuestionRest(formatBrl(TAG_MONTHLY_FEE_CENTS))}`.replace(/\s+/g, ' '),
    );
    expect(dialog).toHaveTextContent(/por R\$\s15,90 por mês\?/);
    expect(api.callsTo('POST', '/api/tag/ativar-tag-motorista')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/tag/ativar-tag-motorista')).toHaveLength(0);

    await user.click(button('Ativar'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Ativar tag' })).getByRole('button', { name: 'Ativar' }));
    expect(await screen.findByText(messages.tag.activated)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/ativar-tag-motorista')).toHaveLength(1);
  });

  it('asks before deleting, then goes back to the list', async () => {
    const { user, api, router } = openDetail(
      { statusCode: 300 },
      { 'POST /api/veiculo/delete-tag-vehicle': ok(), 'GET /api/tag/listar': ok({ Tags: [], Paginacao: { TotalPaginas: 0 } }) },
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
    const { user, api } = openDetail({ statusCode: 100 }, { 'POST /api/tag/substituir': ok() });
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Substituir'));
    const dialog = await screen.findByRole('dialog', { name: 'Substituir tag' });
    const field = within(dialog).getByLabelText('Número da nova Tag');
    await user.click(field);
    await user.paste('ab12');
    await user.click(within(dialog).getByRole('button', { name: 'Substituir' }));
    expect(await within(dialog).findByText('Digite o número da nova Tag para substituir')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/substituir')).toHaveLength(0);
    await user.paste('cd3456');
    expect(field).toHaveValue('AB12 CD34 56');
    await user.click(within(dialog).getByRole('button', { name: 'Substituir' }));
    expect(await screen.findByText('Tag substituída com sucesso!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/substituir')[0]?.body).toEqual({
      serialNumber: '1234567812345678',
      newSerialNumber: 'AB12CD3456',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('refuses the current serial as the new one', async () => {
    const { user, api } = openDetail({ statusCode: 100 });
    await screen.findByText('1234 5678 1234 5678');
    await user.click(button('Substituir'));
    const dialog = await screen.findByRole('dialog', { name: 'Substituir tag' });
    await user.click(within(dialog).getByLabelText('Número da nova Tag'));
    await user.paste('1234567812345678');
    await user.click(within(dialog).getByRole('button', { name: 'Substituir' }));
    expect(await within(dialog).findByText('O número da nova Tag deve ser diferente do atual')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/tag/substituir')).toHaveLength(0);
  });

  it('a plate that is not the driver\'s shows "Veículo não encontrado" and a link back', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...catalogue,
      'GET /api/veiculo/detail/ABC1D23': { status: 404, body: { Sucesso: false, Mensagem: 'Veículo não encontrado' } },
    });
    renderRoute('/tags/detalhes/ABC1D23');
    expect(await screen.findByText('Veículo não encontrado')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Voltar para Tags' }).length).toBeGreaterThan(0);
  });
});

describe('/tags/editar/:licensePlate', () => {
  it.each([
    { state: 'ativa', statusCode: 100 },
    { state: 'bloqueada', statusCode: 204 },
    { state: 'cancelada', statusCode: 301 },
  ])('reached directly for a tag $state, says it cannot be edited and why', async ({ state, statusCode }) => {
    open('/tags/editar/ABC1D23', { statusCode });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não é possível editar esta tag');
    expect(alert).toHaveTextContent(`Esta tag está ${state}: somente tags inativas podem ser editadas`);
    expect(screen.queryByRole('form', { name: 'Editar Tag' })).not.toBeInTheDocument();
  });

  it('shows the tag and vehicle, then saves spec §7 update payload and goes back to the details', async () => {
    const { user, api, router } = open(
      '/tags/editar/ABC1D23',
      { statusCode: 201 },
      { 'POST /api/veiculo/update': ok({ Mensagem: 'Sucesso!' }) },
    );
    const form = await screen.findByRole('form', { name: 'Editar Tag' });
    expect(within(form).getByLabelText('Número da Tag')).toHaveValue('1234 5678 1234 5678');
    expect(within(form).getByLabelText('Placa do Veículo')).toHaveValue('ABC1D23');
    expect(within(form).getByLabelText('CPF/CNPJ da ANTT')).toHaveValue('529.982.247-25');
    await waitFor(() => expect(within(form).getByLabelText('Operadora')).toHaveValue(SEMPARAR));
    expect(within(form).getByLabelText('Eixos')).toHaveValue('3');

    await user.selectOptions(within(form).getByLabelText('Eixos'), '2');
    await paste(user, 'RNTRC da ANTT', '87654321');
    await user.click(button('Salvar'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/detalhes/ABC1D23'));
    expect(api.callsTo('POST', '/api/veiculo/update')[0]?.body).toEqual({
      vehicle_id: 9,
      serialNumber: '1234567812345678',
      Operadora: SEMPARAR,
      LicensePlate: 'ABC1D23',
      CpfCnpjAntt: '52998224725',
      RntrcAntt: '87654321',
      Axles: 2,
      vehicleType: 1,
    });
    expect(await screen.findByText('Sucesso!')).toBeInTheDocument();
  });

  it('shows spec §5 messages and the server field errors under their fields', async () => {
    const plateTaken = 'Você já tem um veículo com esta placa';
    const { user, api } = open(
      '/tags/editar/ABC1D23',
      { statusCode: 201 },
      {
        'POST /api/veiculo/update': { status: 409, body: { Sucesso: false, Mensagem: plateTaken, errors: { LicensePlate: [plateTaken] } } },
      },
    );
    const form = await screen.findByRole('form', { name: 'Editar Tag' });
    await user.clear(within(form).getByLabelText('Número da Tag'));
    await user.click(button('Salvar'));
    expect(await within(form).findByText('Por favor digite a Tag a ser ativada')).toBeInTheDocument();
    expect(within(form).getByLabelText('Número da Tag')).toHaveFocus();
    expect(api.callsTo('POST', '/api/veiculo/update')).toHaveLength(0);

    await paste(user, 'Número da Tag', '1234567812345678');
    await paste(user, 'Placa do Veículo', 'XYZ9K88');
    await user.click(button('Salvar'));
    await waitFor(() => expect(within(form).getByLabelText('Placa do Veículo')).toHaveAccessibleDescription(plateTaken));
    expect(within(form).getByLabelText('Placa do Veículo')).toHaveFocus();
  });
});

describe('/tags/listar', () => {
  const row = (statusCode: number | null, extra: Record<string, unknown> = {}) => ({
    serialNumber: '1234567812345678',
    Operadora: SEMPARAR,
    statusCode,
    ownershipType: 'own',
    vehicle: { LicensePlate: 'ABC1D23' },
    ...extra,
  });
  const list = (...tags: unknown[]) => ({ ...catalogue, 'GET /api/tag/listar': ok({ Tags: tags, Paginacao: { TotalPaginas: 1 } }) });

  it('shows the plate with its badge, the serial in groups of 4 and the operator; links to details and the form', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi(list(row(204)));
    renderRoute('/tags/listar');
    expect(await screen.findByText('Tag 1234 5678 1234 5678')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Tag', 'Operadora', 'Ação']);
    expect(screen.getByText('Bloqueada')).toBeInTheDocument();
    expect(await screen.findByText('SemParar')).toBeInTheDocument();
    const details = screen.getByRole('link', { name: /Tag 1234 5678 1234 5678, veículo ABC1D23/ });
    expect(details).toHaveTextContent('ABC1D23');
    expect(details).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(screen.getByRole('link', { name: 'Cadastrar Tag' })).toHaveAttribute('href', '/tags/adicionar');
    expect(screen.getByRole('button', { name: 'Excluir tag do veículo ABC1D23' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Excluir tag do veículo ABC1D23' })).toHaveAccessibleDescription(
      'Cancele a tag antes de excluí-la',
    );
  });

  it.each([
    { name: 'an inactive tag', tag: row(201), editable: true },
    { name: 'a tag without status (inactive)', tag: row(null), editable: true },
    { name: 'an active tag', tag: row(100), editable: false },
    { name: 'a blocked tag', tag: row(200), editable: false },
    { name: 'a cancelled tag', tag: row(300), editable: false },
    { name: "an operator's inactive tag", tag: row(201, { ownershipType: 'operator' }), editable: false },
  ])('offers Editar for $name: $editable', async ({ tag, editable }) => {
    signInStorage({ terms: 'aceito' });
    mockApi(list(tag));
    renderRoute('/tags/listar');
    await screen.findByText('SemParar');
    const edit = screen.queryByRole('link', { name: 'Editar tag do veículo ABC1D23' });
    if (editable) expect(edit).toHaveAttribute('href', '/tags/editar/ABC1D23');
    else expect(edit).not.toBeInTheDocument();
  });
});
