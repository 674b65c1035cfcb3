import { Alert, Button, Center, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { api, type ActionResponse, type VehicleDetail, type VehicleTag } from '@portal/contract';
import {
  canManage,
  formatCpfCnpj,
  formatSerial,
  messages,
  normalizeSerial,
  replaceSerialError,
  statusOf,
  TAG_MONTHLY_FEE_CENTS,
  TAG_ORIGEM,
  TAG_STATUS_IDS,
  TAG_SERIAL_MAX_LENGTH,
  tagActionBlocker,
  type TagAction,
  type TagState,
} from '@portal/domain';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconBan,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconReplace,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { Money } from '../../components/ui/Money';
import { TagStatusBadge } from '../../components/ui/TagStatusBadge';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import { readableAlert } from './tagFields';
import { balanceQueryKey, useBalance } from '../../lib/balance';
import { getUser } from '../../lib/storage';
import {
  answerFailure,
  failureMessage,
  invalidateTagData,
  modelNameOf,
  operatorNameOf,
  useOperators,
  useVehicleModels,
  vehicleDetailQuery,
  warnIfTaggyGreenpass,
} from '../../lib/tags';

/** What each state means, in words a driver understands. */
const STATE_TEXT: Record<TagState, string> = {
  active: 'A tag está ativa e funciona nas praças de pedágio. A mensalidade é cobrada todo mês do seu saldo.',
  blocked: 'A tag está bloqueada e não passa nas praças de pedágio até ser liberada.',
  inactive: 'A tag ainda não foi ativada. Ative para começar a usar nas praças de pedágio.',
  cancelled: 'A tag foi cancelada e não pode mais ser usada. Você pode excluí-la deste veículo.',
};

const feeCents = TAG_MONTHLY_FEE_CENTS;

/** SPEC 2 /tags/detalhes/{licensePlate}: the vehicle, its tag and the tag's actions. */
export function TagDetailPage() {
  const plate = (useParams().licensePlate ?? '').toUpperCase();
  usePageTitle(`Tag do veículo ${plate}`);
  const detail = useQuery(vehicleDetailQuery(plate));

  let body: ReactNode;
  if (detail.isPending) {
    body = (
      <Center mih={200} role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-label="Carregando o veículo" />
          <Text size="sm" c="dimmed">
            Carregando...
          </Text>
        </Stack>
      </Center>
    );
  } else if (detail.isError) {
    const notFound = isApiError(detail.error) && (detail.error.status === 404 || detail.error.status === 403);
    body = (
      <Stack gap="md">
        <Alert styles={readableAlert} color={notFound ? 'yellow' : 'red'} variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
          <Text fw={700}>{notFound ? messages.vehicle.notFound : failureMessage(detail.error)}</Text>
          {notFound ? <Text size="sm">Confira a placa ou escolha o veículo na sua lista de tags.</Text> : null}
        </Alert>
        <Group gap="sm" grow>
          {notFound ? null : (
            <Button variant="outline" onClick={() => void detail.refetch()} loading={detail.isFetching}>
              Tentar novamente
            </Button>
          )}
          <Button component={Link} to="/tags/listar" variant="light" leftSection={<IconArrowLeft size={20} aria-hidden />}>
            Voltar para Tags
          </Button>
        </Group>
      </Stack>
    );
  } else {
    body = <VehicleView vehicle={detail.data.Dados} />;
  }

  return (
    <Stack gap="lg" maw={720}>
      <Button component={Link} to="/tags/listar" variant="subtle" px={0} w="fit-content" leftSection={<IconArrowLeft size={20} aria-hidden />}>
        Voltar para Tags
      </Button>
      <Stack gap={4}>
        <Title order={1}>Veículo {plate}</Title>
        <Text c="dimmed">Dados do veículo e da tag instalada nele.</Text>
      </Stack>
      {body}
    </Stack>
  );
}

/** A serial kept on one line. */
function Nowrap({ children }: { children: ReactNode }) {
  return (
    <strong className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
      {children}
    </strong>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </Stack>
  );
}

function VehicleView({ vehicle }: { vehicle: VehicleDetail }) {
  const operators = useOperators();
  const models = useVehicleModels();
  const tag = vehicle.tag;
  const operatorName = tag ? operatorNameOf(operators.data?.Operadoras, tag.Operadora) : null;

  // SPEC 9: the 60 s warning for Taggy tags starting with 5666, once per tag shown.
  const warned = useRef<string | null>(null);
  useEffect(() => {
    if (!tag || !operatorName || warned.current === tag.serialNumber) return;
    warned.current = tag.serialNumber;
    warnIfTaggyGreenpass(operatorName, tag.serialNumber);
  }, [tag, operatorName]);

  return (
    <Stack gap="lg">
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="veiculo-titulo">
        <Title order={2} size="h3" id="veiculo-titulo" mb="sm">
          Veículo
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" verticalSpacing="sm">
          <Field label="Placa">{vehicle.LicensePlate}</Field>
          <Field label="Eixos">{vehicle.Axles}</Field>
          <Field label="Modelo">{modelNameOf(models.data?.Data, vehicle.modelo) ?? (models.isPending ? '...' : vehicle.modelo || '—')}</Field>
          <Field label="CPF/CNPJ da ANTT">{vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '—'}</Field>
          <Field label="RNTRC da ANTT">{vehicle.RntrcAntt || '—'}</Field>
        </SimpleGrid>
      </Paper>
      {tag ? (
        <TagPanel vehicle={vehicle} tag={tag} operatorName={operatorName} operatorsLoading={operators.isPending} />
      ) : (
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
          <Stack gap="sm">
            <Title order={2} size="h3">
              Tag
            </Title>
            <Text>Este veículo está sem tag. Cadastre uma tag para usar nas praças de pedágio.</Text>
            <Button component={Link} to="/tags/adicionar" leftSection={<IconPlus size={20} aria-hidden />} fullWidth maw={{ sm: 320 }}>
              Cadastrar Tag
            </Button>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

interface ActionSpec {
  action: Exclude<TagAction, 'edit'>;
  label: string;
  icon: ReactNode;
  color?: string;
  variant: 'filled' | 'light' | 'outline';
  run: () => void;
  note?: ReactNode;
}

function TagPanel({
  vehicle,
  tag,
  operatorName,
  operatorsLoading,
}: {
  vehicle: VehicleDetail;
  tag: VehicleTag;
  operatorName: string | null;
  operatorsLoading: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const balance = useBalance();
  const [busy, setBusy] = useState<TagAction | null>(null);
  const [replacing, setReplacing] = useState(false);
  const status = statusOf(tag.statusCode);
  const manageable = canManage({ ...tag, operatorName });
  const serial = formatSerial(tag.serialNumber);
  const blockerOf = (action: TagAction) => tagActionBlocker(action, { ...tag, operatorName });

  /** Runs a call; success toast and fresh data, or the error toast of SPEC 8. */
  const perform = async (
    action: TagAction,
    call: () => Promise<ActionResponse>,
    success: string,
    options: { errorTitle?: string; successTitle?: string; after?: () => void } = {},
  ): Promise<boolean> => {
    setBusy(action);
    try {
      const answer = await call();
      const failure = answerFailure(answer);
      if (failure) {
        toast.error(failure, { title: options.errorTitle ?? ERROR_TOAST_TITLE });
        return false;
      }
      toast.success(success, options.successTitle ? { title: options.successTitle } : {});
      options.after?.();
      return true;
    } catch (error) {
      if (!(isApiError(error) && error.isUnauthorized)) {
        toast.error(failureMessage(error), { title: options.errorTitle ?? ERROR_TOAST_TITLE });
      }
      return false;
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      await invalidateTagData(queryClient);
    }
  };

  const statusBody = (statusId: string) => ({ serialNumber: tag.serialNumber, statusId, origem: TAG_ORIGEM });

  const block = async () => {
    const ok = await confirmAction({
      title: 'Bloquear tag',
      message: (
        <Text>
          Bloquear a tag <Nowrap>{serial}</Nowrap>? Enquanto bloqueada, ela não passa nas praças de pedágio. Você pode liberá-la depois.
        </Text>
      ),
      confirmLabel: 'Bloquear',
      danger: true,
    });
    if (ok) await perform('block', () => request(api.blockTag, { body: statusBody(TAG_STATUS_IDS.block) }), messages.tag.blocked);
  };
  const release = () =>
    void perform('release', () => request(api.releaseTag, { body: statusBody(TAG_STATUS_IDS.release) }), messages.tag.released);
  const cancel = async () => {
    const ok = await confirmAction({
      title: 'Cancelar tag',
      message: (
        <Text>
          Cancelar a tag <Nowrap>{serial}</Nowrap>? Uma tag cancelada não pode ser usada de novo.
        </Text>
      ),
      confirmLabel: 'Cancelar tag',
      cancelLabel: 'Voltar',
      danger: true,
    });
    if (ok) await perform('cancel', () => request(api.cancelTag, { body: statusBody(TAG_STATUS_IDS.cancel) }), messages.tag.cancelled);
  };
  const activate = () =>
    void perform(
      'activate',
      () =>
        request(api.activateTag, {
          body: { serialNumber: tag.serialNumber, licensePlate: vehicle.LicensePlate, cnpj: getUser()?.cpfCnpj ?? '' },
        }),
      messages.tag.activated,
    );
  const remove = async () => {
    const ok = await confirmAction({
      title: 'Excluir tag',
      message: (
        <Text>
          Excluir a tag <Nowrap>{serial}</Nowrap> do veículo {vehicle.LicensePlate}? Esta ação não pode ser desfeita.
        </Text>
      ),
      confirmLabel: 'Excluir',
      danger: true,
    });
    if (!ok) return;
    await perform('remove', () => request(api.removeTag, { body: { serialNumber: tag.serialNumber } }), `A tag ${serial} foi excluída.`, {
      successTitle: messages.tag.removed,
      errorTitle: messages.tag.removeFailed,
      after: () => void navigate('/tags/listar'),
    });
  };

  const saldo = balance.data?.Saldo;
  const actions: ActionSpec[] = [
    {
      action: 'activate',
      label: 'Ativar',
      icon: <IconPlayerPlay size={20} aria-hidden />,
      variant: 'filled',
      color: 'sign',
      run: activate,
      note: (
        <Text size="sm">
          A ativação debita a mensalidade de <Money cents={feeCents} fw={700} /> do seu saldo
          {saldo !== undefined ? (
            <>
              {' '}
              (saldo atual: <Money reais={saldo} fw={700} />)
            </>
          ) : null}
          .
        </Text>
      ),
    },
    { action: 'release', label: 'Liberar', icon: <IconLockOpen size={20} aria-hidden />, variant: 'filled', run: release },
    { action: 'block', label: 'Bloquear', icon: <IconLock size={20} aria-hidden />, variant: 'outline', color: 'red', run: () => void block() },
    { action: 'replace', label: 'Substituir', icon: <IconReplace size={20} aria-hidden />, variant: 'outline', run: () => setReplacing(true) },
    { action: 'cancel', label: 'Cancelar', icon: <IconBan size={20} aria-hidden />, variant: 'outline', color: 'red', run: () => void cancel() },
    { action: 'remove', label: 'Excluir', icon: <IconTrash size={20} aria-hidden />, variant: 'outline', color: 'red', run: () => void remove() },
  ];
  const available = actions.filter((a) => blockerOf(a.action) === null);
  const unavailable = actions.filter((a) => blockerOf(a.action) !== null);
  const editable = manageable && blockerOf('edit') === null;

  return (
    <>
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="tag-titulo">
        <Stack gap="md">
          <Group justify="space-between" align="center" gap="xs">
            <Title order={2} size="h3" id="tag-titulo">
              Tag
            </Title>
            <TagStatusBadge code={tag.statusCode} />
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm">
            <Field label="Número da Tag">
              <span className="tabular-nums" data-testid="tag-serial">
                {serial}
              </span>
            </Field>
            <Field label="Operadora">{operatorName ?? (operatorsLoading ? '...' : 'Desconhecida')}</Field>
          </SimpleGrid>
          <Alert styles={readableAlert} variant="light" color={status.color === 'green' ? 'sign' : status.color === 'red' ? 'red' : status.color === 'yellow' ? 'yellow' : 'gray'} title={status.description === status.label ? `Tag ${status.label.toLowerCase()}` : status.description}>
            <Text size="sm">{STATE_TEXT[status.state]}</Text>
          </Alert>
          {editable ? (
            <Button
              component={Link}
              to={`/tags/editar/${vehicle.LicensePlate}`}
              state={{ vehicle, tag }}
              variant="light"
              leftSection={<IconPencil size={20} aria-hidden />}
              fullWidth
              maw={{ sm: 320 }}
            >
              Editar
            </Button>
          ) : null}
        </Stack>
      </Paper>

      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="acoes-titulo">
        <Stack gap="md">
          <Title order={2} size="h3" id="acoes-titulo">
            O que você pode fazer
          </Title>
          {!manageable ? (
            <Alert styles={readableAlert} color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} title="Esta tag não pode ser alterada aqui">
              <Text size="sm">{messages.tag.whyNotManageable}</Text>
            </Alert>
          ) : (
            <>
              {available.length === 0 ? <Text>Nenhuma ação disponível para esta tag agora.</Text> : null}
              <Stack gap="sm">
                {available.map((a) => (
                  <Stack key={a.action} gap={4}>
                    <Button
                      size="md"
                      fullWidth
                      variant={a.variant}
                      color={a.color}
                      leftSection={a.icon}
                      onClick={a.run}
                      loading={busy === a.action}
                      disabled={busy !== null && busy !== a.action}
                    >
                      {a.label}
                    </Button>
                    {a.note}
                  </Stack>
                ))}
              </Stack>
              {unavailable.length > 0 ? (
                <Stack gap="sm" mt="xs">
                  <Text size="sm" fw={700} c="gray.7">
                    Indisponíveis agora
                  </Text>
                  {unavailable.map((a) => {
                    const reasonId = `motivo-${a.action}`;
                    return (
                      <Stack key={a.action} gap={4}>
                        <Button
                          variant="default"
                          size="sm"
                          w="fit-content"
                          leftSection={a.icon}
                          disabled
                          aria-describedby={reasonId}
                        >
                          {a.label}
                        </Button>
                        <Text size="sm" c="gray.7" id={reasonId}>
                          {blockerOf(a.action)}
                        </Text>
                      </Stack>
                    );
                  })}
                </Stack>
              ) : null}
            </>
          )}
        </Stack>
      </Paper>

      <ReplaceTagModal
        opened={replacing}
        currentSerial={tag.serialNumber}
        onClose={() => setReplacing(false)}
        onReplace={(newSerial) =>
          perform('replace', () => request(api.replaceTag, { body: { serialNumber: tag.serialNumber, newSerialNumber: newSerial } }), messages.tag.replaced, {
            after: () => setReplacing(false),
          })
        }
      />
    </>
  );
}

/** SPEC 5 'Replace tag': the new serial needs at least 8 letters or digits. */
export function ReplaceTagModal({
  opened,
  currentSerial,
  onClose,
  onReplace,
}: {
  opened: boolean;
  currentSerial: string;
  onClose: () => void;
  onReplace: (newSerial: string) => Promise<boolean>;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = replaceSerialError(value);
    if (problem) {
      setError(problem);
      return;
    }
    if (normalizeSerial(value) === normalizeSerial(currentSerial)) {
      setError(messages.tag.sameSerial);
      return;
    }
    setSending(true);
    const done = await onReplace(normalizeSerial(value));
    setSending(false);
    if (done) {
      setValue('');
      setError(null);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Substituir tag" centered size="md" closeButtonProps={{ 'aria-label': 'Fechar' }}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">
            A tag atual <strong className="tabular-nums">{formatSerial(currentSerial)}</strong> deixará de funcionar e a nova tag ficará
            no lugar dela, no mesmo estado.
          </Text>
          <TextInput
            label="Número da nova Tag"
            name="newSerialNumber"
            placeholder="0000 0000 0000 0000"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            size="md"
            data-autofocus
            maxLength={TAG_SERIAL_MAX_LENGTH}
            value={value}
            error={error}
            onChange={(event) => {
              setValue(formatSerial(event.currentTarget.value));
              setError(null);
            }}
          />
          <Group grow gap="sm">
            <Button variant="default" onClick={close} size="md">
              Voltar
            </Button>
            <Button type="submit" loading={sending} size="md">
              Substituir
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

