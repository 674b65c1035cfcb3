import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Center, Group, Loader, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { PasswordField } from '../../components/ui/PasswordField';
import { ERROR_CODES, type PayoutLimits, type SavedPixKey } from '@portal/contract';
import {
  documentKind,
  DUAL_CONTROL_HOURS,
  fleetScreens,
  formatBrl,
  formatDateTime,
  messages,
  NEW_PIX_KEY_CAP_CENTS,
  normalizePixKey,
  parseBrlInput,
  payoutMessages,
  stripDocument,
  type PixKeyType,
} from '@portal/domain';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconCash,
  IconCircleCheck,
  IconHourglassHigh,
  IconInfoCircle,
  IconReceipt,
  IconRefresh,
  IconShieldCheck,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { Money } from '../../components/ui/Money';
import { PixKeyInput } from '../../components/ui/PixKeyInput';
import { formatPixKey } from '../../components/ui/pixKey';
import { PixKeyTypeSelect } from '../../components/ui/PixKeyTypeSelect';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useBalance } from '../../lib/balance';
import { answerFailure, errorMessage } from '../../lib/errors';
import { toCents } from '../../lib/format';
import { RECEIPT_LINK_LABEL, receiptPath } from '../../lib/receipts';
import { findSavedKey } from '../../lib/payouts';
import { getUser } from '../../lib/storage';
import { markTermsRefused } from '../../lib/terms';
import { eligibilityQuery, usePayoutLimits, useSavedPixKeys, useWithdraw } from './api/withdrawal';
import { LimitsSummary } from './LimitsSummary';
import { SavedKeyChoices } from './SavedKeyChoices';
import {
  capOfTyped,
  needsPassword,
  unsavedKeyCap,
  withdrawForm,
  type KeyCapOf,
  type KeyTrusted,
  type WithdrawFormInput,
  type WithdrawFormValues,
} from './withdrawForm';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

/** Founding decision 16: toasts top-center on /saldo/*. */
const position = 'top-center' as const;

/** Decision 44: what the password does here, said where it is asked (the cap is said above it). */
const PASSWORD_HINT = 'Esta chave ainda não está salva: com sua senha ela fica salva em Minhas chaves Pix.';

/** Decision 44's cap of a key not saved yet, said as soon as the key is typed, before the password. */
/** The Valor field's refusal for a new key's cap, set as the value or the key is typed. */
const CAP_ERROR = 'cap';

const NEW_KEY_CAP_HINT = payoutMessages.newKeyCap(formatBrl(NEW_PIX_KEY_CAP_CENTS));

/** The server's 422 field names (the domain's, and the contract's for the Pix object) on the form's fields. */
const SERVER_FIELDS = {
  amount: 'amount',
  pixType: 'pixType',
  'pix.type': 'pixType',
  pixKey: 'pixKey',
  'pix.key': 'pixKey',
  senha: 'senha',
} as const satisfies Record<string, keyof WithdrawFormInput>;

const emptyForm: WithdrawFormInput = { amount: '', pixType: '', pixKey: '', senha: '' };

interface FormContext {
  balanceCents: number;
  trusted: KeyTrusted;
  capOf: KeyCapOf;
}

/** The rules depend on the balance shown and on the keys saved, handed in as the form's context. */
const resolver: Resolver<WithdrawFormInput, FormContext, WithdrawFormValues> = (values, context, options) =>
  zodResolver(withdrawForm(context?.balanceCents ?? 0, context?.trusted ?? (() => false), context?.capOf))(values, context, options);

/** The driver's own CPF/CNPJ as a key: it never asks for the password (the server's isOwnKey). */
function isOwnKey(type: PixKeyType, key: string): boolean {
  const own = stripDocument(getUser()?.cpfCnpj ?? '');
  return own !== '' && documentKind(own) === type && normalizePixKey(type, key) === own;
}

/** spec §2 /saldo/retirar: eligibility, then the balance and the withdrawal form. */
export function WithdrawPage() {
  usePageTitle('Sacar Saldo');
  const eligibility = useQuery(eligibilityQuery);
  // Asked for with the eligibility, not after it: one round trip on a weak link instead of two.
  useBalance({ refetchOnMount: 'always' });
  const savedKeys = useSavedPixKeys();
  const limits = usePayoutLimits();
  // The form is drawn whole: the key choices and the limits appearing later pushed the fields down.
  // A read that failed once is not waited for (its retries go on; the form works without it).
  // Once drawn, the form stays while they are read again: a read that has no data goes back to
  // pending when asked again (after a withdrawal), and the form drawn anew lost 'Ver comprovante'.
  const [formDrawn, setFormDrawn] = useState(false);
  const formReadsSettled = formDrawn || [savedKeys, limits].every((read) => !read.isPending || read.failureCount > 0);
  // The form is rendered in the background, yielding to taps (a transition): drawn in one go it
  // held the main thread for about 300 ms on a slow phone, right when the driver reaches for it.
  const formReady = useDeferredValue(eligibility.data?.Sucesso === true && formReadsSettled);
  if (formReady && !formDrawn) setFormDrawn(true);

  let body;
  if (eligibility.isPending || (eligibility.data?.Sucesso === true && !formReady)) {
    body = (
      <Center mih={160} role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-label="Verificando se o saque está disponível" />
          <Text size="sm" c="dimmed">
            Verificando se o saque está disponível...
          </Text>
        </Stack>
      </Center>
    );
  } else if (eligibility.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
        <Stack gap="sm" align="flex-start">
          <Text>{errorMessage(eligibility.error)}</Text>
          <Button
            variant="white"
            color="red"
            size="sm"
            leftSection={<IconRefresh size={18} aria-hidden />}
            loading={eligibility.isFetching}
            onClick={() => void eligibility.refetch()}
          >
            Tentar novamente
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!eligibility.data.Sucesso && eligibility.data.code === ERROR_CODES.termsNotAccepted) {
    // Issue 25: the terms are accepted right here (the shell's bar, at the foot), and the form follows.
    body = <TermsRefusal message={eligibility.data.Mensagem} />;
  } else if (!eligibility.data.Sucesso) {
    body = (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
          <Text>{eligibility.data.Mensagem}</Text>
        </Alert>
        <Button component={Link} to="/dashboard" variant="outline" fullWidth leftSection={<IconArrowLeft size={20} aria-hidden />}>
          Voltar ao painel
        </Button>
      </Stack>
    );
  } else {
    body = <WithdrawForm keys={savedKeys.data?.Chaves} limits={limits.data?.Limites} />;
  }

  return (
    <FormPage>
      <Stack gap={4}>
        <Title order={1}>Sacar Saldo</Title>
        <Text>Para sacar o saldo informe os dados abaixo</Text>
      </Stack>
      <OfflineNotice />
      {body}
    </FormPage>
  );
}

/**
 * The withdrawal refused for the terms: the shell's terms bar shows at the foot (lib/terms.ts), whatever
 * this phone believed; once they are accepted the eligibility is read again and the form appears.
 */
function TermsRefusal({ message }: { message: string }) {
  useEffect(() => markTermsRefused(), []);
  return (
    <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
      <Stack gap={4}>
        <Text>{message}</Text>
        <Text fw={600}>{messages.terms.acceptHere}</Text>
      </Stack>
    </Alert>
  );
}

/** A withdrawal's result above the form: what happened, and the way to where it can be followed. */
function ResultAlert({
  color,
  icon,
  title,
  text,
  to,
  linkIcon,
  linkLabel,
}: {
  color: string;
  icon: ReactNode;
  title?: string;
  text: string;
  to: string;
  linkIcon: ReactNode;
  linkLabel: string;
}) {
  return (
    <Alert color={color} variant="light" role="status" icon={icon} title={title}>
      <Stack gap="xs" align="flex-start">
        <Text fw={title ? undefined : 600}>{text}</Text>
        <Button component={Link} to={to} variant="white" size="sm" leftSection={linkIcon}>
          {linkLabel}
        </Button>
      </Stack>
    </Alert>
  );
}

/** The keys and limits the page has just read (asked once a visit), undefined while a read that failed retries. */
function WithdrawForm({ keys, limits }: { keys: readonly SavedPixKey[] | undefined; limits: PayoutLimits | undefined }) {
  const balance = useBalance();
  const withdraw = useWithdraw();
  const balanceReais = balance.data?.Saldo;
  const negative = balanceReais !== undefined && balanceReais < 0;
  // Until the keys are known, only the driver's own key goes without the password.
  const trusted = useCallback<KeyTrusted>(
    (type, key) => isOwnKey(type, key) || (keys !== undefined && findSavedKey(keys, type, key) !== undefined),
    [keys],
  );
  // A key not saved yet may receive the new key's cap; a key saved less than 24 hours ago what it has left.
  const capOf = useCallback<KeyCapOf>(
    (type, key) => {
      if (!trusted(type, key)) return unsavedKeyCap;
      const saved = keys && findSavedKey(keys, type, key);
      if (!saved?.limitadaAte || saved.restanteLimitada === null) return null;
      const left = toCents(saved.restanteLimitada);
      return {
        leftCents: left,
        exceeded: payoutMessages.newKeyExceeded(formatBrl(NEW_PIX_KEY_CAP_CENTS), formatDateTime(saved.limitadaAte), formatBrl(left)),
      };
    },
    [keys, trusted],
  );
  const {
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    clearErrors,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<WithdrawFormInput, FormContext, WithdrawFormValues>({
    resolver,
    context: { balanceCents: balanceReais === undefined ? 0 : toCents(balanceReais), trusted, capOf },
    defaultValues: emptyForm,
  });
  const keyType = useWatch({ control, name: 'pixType' });
  const typedKey = useWatch({ control, name: 'pixKey' });
  const chosen = keyType && keys ? findSavedKey(keys, keyType, typedKey) : undefined;
  const askPassword = needsPassword(keyType, typedKey, trusted);
  const cap = capOfTyped(keyType, typedKey, capOf);
  const typedAmount = useWatch({ control, name: 'amount' });
  // Issue 33: a value beyond the key's cap is refused as soon as the key is known to be new, before any password.
  const capLeft = cap?.leftCents;
  const capExceeded = cap?.exceeded;
  useEffect(() => {
    const cents = typedAmount.trim() === '' ? null : parseBrlInput(typedAmount);
    if (capLeft !== undefined && cents !== null && cents > capLeft) setError('amount', { type: CAP_ERROR, message: capExceeded });
    else if (getFieldState('amount').error?.type === CAP_ERROR) clearErrors('amount');
  }, [capLeft, capExceeded, typedAmount, setError, clearErrors, getFieldState]);
  // Issue 12: the last withdrawal requested here, with the way to its receipt.
  const [requested, setRequested] = useState<string | null>(null);
  // Decision 77: the last withdrawal asked here waits for another Gestor of the company (AGUARDANDO_APROVACAO).
  const [waiting, setWaiting] = useState(false);
  // The fields stay enabled while sending: a field the server refuses must be able to take the focus.

  useEffect(() => {
    if (balance.isError) console.error('Falha ao carregar o saldo', balance.error);
  }, [balance.isError, balance.error]);

  const onSubmit = handleSubmit(async (order) => {
    if (balanceReais === undefined || negative) return;
    setRequested(null);
    setWaiting(false);
    try {
      const answer = await withdraw.mutateAsync(order);
      // spec §8: an answer with `error` shows it; a success says 'Sucesso!' with Mensagem; else Mensagem.
      const failure = answer.error || answerFailure(answer);
      if (failure) {
        toast.error(failure, { title: ERROR_TOAST_TITLE, position });
      } else if (answer.status === 'AGUARDANDO_APROVACAO') {
        // Nothing was sent yet: not the 'Sucesso!' of a withdrawal on its way, the wait and where to follow it.
        reset(emptyForm);
        setWaiting(true);
      } else {
        toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, position });
        reset(emptyForm);
        if (answer.withdrawalId) setRequested(answer.withdrawalId);
      }
    } catch (failure) {
      toastFormFailure(failure, setError, SERVER_FIELDS, position);
    }
  });

  /** A quick choice fills the type and the key as if typed (the password of another key is forgotten). */
  const choose = (key: SavedPixKey) => {
    setValue('pixType', key.tipo);
    setValue('pixKey', formatPixKey(key.tipo, key.chave));
    setValue('senha', '');
    clearErrors(['pixType', 'pixKey', 'senha']);
  };

  return (
    <Stack gap="md">
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" aria-live="polite" aria-busy={balance.isFetching}>
        <Group justify="space-between" align="baseline" gap="xs">
          <Text fw={600} c="gray.7">
            Saldo de pedágio:
          </Text>
          {balanceReais === undefined ? (
            balance.isError ? (
              <Text size="sm">Não foi possível mostrar seu saldo agora.</Text>
            ) : (
              <Skeleton height={32} width={160} radius="sm" />
            )
          ) : (
            <Money
              reais={balanceReais}
              colorPositive
              fz="calc(1.75rem * var(--mantine-scale))"
              fw={700}
              lh={1.2}
              data-testid="saldo-saque"
            />
          )}
        </Group>
      </Paper>

      {negative ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
          <Text fw={600}>{messages.withdrawal.insufficientBalance}</Text>
        </Alert>
      ) : null}

      {requested ? (
        <ResultAlert
          color="sign"
          icon={<IconCircleCheck aria-hidden />}
          text="Saque registrado: o comprovante mostra a situação do Pix."
          to={receiptPath('saque', requested)}
          linkIcon={<IconReceipt size={18} aria-hidden />}
          linkLabel={RECEIPT_LINK_LABEL}
        />
      ) : null}

      {waiting ? (
        <ResultAlert
          color="road"
          icon={<IconHourglassHigh aria-hidden />}
          title={fleetScreens.dualControl.waitingTitle}
          text={fleetScreens.dualControl.waiting(DUAL_CONTROL_HOURS)}
          to="/empresa/dupla-aprovacao"
          linkIcon={<IconShieldCheck size={18} aria-hidden />}
          linkLabel={fleetScreens.dualControl.waitingLink}
        />
      ) : null}

      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
        {/* While sending, 'Sacar' is disabled (loading): Enter cannot send the form twice. */}
        <PrerenderedForm onSubmit={(event) => void onSubmit(event)} aria-label="Sacar saldo">
          <Stack gap="md">
            <ControlledCurrencyInput control={control} name="amount" inputName="valor" label="Valor" disabled={negative} />
            {keys && keys.length > 0 ? <SavedKeyChoices keys={keys} chosen={chosen} disabled={negative} onChoose={choose} /> : null}
            <Controller
              control={control}
              name="pixType"
              render={({ field }) => (
                <PixKeyTypeSelect
                  selectRef={field.ref}
                  name="tipoChave"
                  value={field.value}
                  onChange={(event) => {
                    field.onChange(event);
                    // spec §2: changing the key type clears the key.
                    setValue('pixKey', '');
                    clearErrors('pixKey');
                  }}
                  onBlur={field.onBlur}
                  error={errors.pixType?.message}
                  disabled={negative}
                />
              )}
            />
            <Controller
              control={control}
              name="pixKey"
              render={({ field }) => (
                <PixKeyInput
                  keyType={keyType}
                  name="chave"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={errors.pixKey?.message}
                  disabled={negative}
                />
              )}
            />
            {askPassword ? (
              <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} role="status">
                <Text size="sm">{NEW_KEY_CAP_HINT}</Text>
              </Alert>
            ) : null}
            {askPassword ? (
              <Controller
                control={control}
                name="senha"
                render={({ field }) => (
                  <PasswordField
                    ref={field.ref}
                    label="Senha"
                    description={PASSWORD_HINT}
                    name="senha"
                    autoComplete="current-password"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={errors.senha?.message}
                    disabled={negative}
                  />
                )}
              />
            ) : null}
            {limits ? <LimitsSummary limits={limits} /> : null}
            <NetworkSubmitButton
              size="lg"
              loading={isSubmitting}
              disabled={negative || balanceReais === undefined}
              leftSection={<IconCash size={22} aria-hidden />}
            >
              Sacar
            </NetworkSubmitButton>
          </Stack>
        </PrerenderedForm>
      </Paper>
    </Stack>
  );
}
