import { Alert, Button, Center, Group, Loader, NativeSelect, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { api } from '@portal/contract';
import {
  centsToReais,
  isPixKeyType,
  messages,
  normalizePixKey,
  parseBrlInput,
  PIX_KEY_TYPES,
  pixKeyTypeLabels,
  withdrawalError,
  type PixKeyType,
  type WithdrawalField,
} from '@portal/domain';
import { IconAlertCircle, IconArrowLeft, IconCash, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CurrencyInput } from '../../components/ui/CurrencyInput';
import { MaskedInput, type MaskOptions } from '../../components/ui/MaskedInput';
import { Money } from '../../components/ui/Money';
import { cnpjMask, cpfMask, phoneMask } from '../../components/ui/masks';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError, request } from '../../lib/api';
import { balanceQueryKey, useBalance } from '../../lib/balance';
import { toCents } from '../../lib/format';
import { getUser } from '../../lib/storage';

/** Decision 16: toasts top-center on /saldo/*. */
const position = 'top-center' as const;

export const eligibilityQueryKey = ['motorista', 'verificar-saque'] as const;

/** SPEC 2 key masks: CPF, CNPJ (alphanumeric allowed) and phone; none for e-mail and random key. */
const keyMasks: Partial<Record<PixKeyType, MaskOptions>> = { CPF: cpfMask, CNPJ: cnpjMask, PHONE: phoneMask };

const keyPlaceholders: Record<PixKeyType, string> = {
  CPF: '000.000.000-00',
  CNPJ: '00.000.000/0000-00',
  PHONE: '(00) 00000-0000',
  EMAIL: 'nome@exemplo.com',
  EVP: 'Ex.: 123e4567-e89b-12d3-a456-426614174000',
};

const keyInputModes: Record<PixKeyType, 'numeric' | 'text' | 'tel' | 'email'> = {
  CPF: 'numeric',
  CNPJ: 'text',
  PHONE: 'tel',
  EMAIL: 'email',
  EVP: 'text',
};

type FieldErrors = Partial<Record<WithdrawalField, string>>;
const FIELDS: readonly WithdrawalField[] = ['amount', 'pixType', 'pixKey'];

/** The server's 422 names (ours are the domain's; 'pix.key' style names are accepted too). */
function fieldOf(name: string): WithdrawalField | null {
  if ((FIELDS as readonly string[]).includes(name)) return name as WithdrawalField;
  if (name === 'pix.type' || name === 'type') return 'pixType';
  if (name === 'pix.key' || name === 'key' || name === 'pix') return 'pixKey';
  return null;
}

/** SPEC 7: the withdrawal's `error` field, when the answer carries one. */
function bodyError(body: unknown): string | null {
  if (typeof body === 'object' && body !== null) {
    const error = (body as { error?: unknown }).error;
    if (typeof error === 'string' && error) return error;
  }
  return null;
}

/** SPEC 2 /saldo/retirar: eligibility, then the balance and the withdrawal form. */
export function WithdrawPage() {
  usePageTitle('Sacar Saldo');
  const eligibility = useQuery({
    queryKey: eligibilityQueryKey,
    queryFn: ({ signal }) => request(api.withdrawalEligibility, { signal }),
    staleTime: 0,
  });

  let body;
  if (eligibility.isPending) {
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
          <Text>{isApiError(eligibility.error) ? eligibility.error.message : messages.session.internalError}</Text>
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
    body = <WithdrawForm />;
  }

  return (
    <Stack gap="lg" maw={560}>
      <Stack gap={4}>
        <Title order={1}>Sacar Saldo</Title>
        <Text>Para sacar o saldo informe os dados abaixo</Text>
      </Stack>
      {body}
    </Stack>
  );
}

function WithdrawForm() {
  const queryClient = useQueryClient();
  const balance = useBalance({ refetchOnMount: 'always' });
  const [amount, setAmount] = useState('');
  const [keyType, setKeyType] = useState<PixKeyType | ''>('');
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const typeRef = useRef<HTMLSelectElement>(null);
  const keyRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (balance.isError) console.error('Falha ao carregar o saldo', balance.error);
  }, [balance.isError, balance.error]);

  const saldo = balance.data?.Saldo;
  const negative = saldo !== undefined && saldo < 0;
  const fieldsDisabled = negative || submitting;

  const showError = (field: WithdrawalField, message: string) => {
    setErrors({ [field]: message });
    // The field whose message is shown gets the focus (the fields are already on screen).
    ({ amount: amountRef, pixType: typeRef, pixKey: keyRef })[field].current?.focus();
  };

  const onTypeChange = (value: string) => {
    setKeyType(isPixKeyType(value) ? value : '');
    setKey('');
    setErrors((current) => ({ ...current, pixType: undefined, pixKey: undefined }));
  };

  const reset = () => {
    setAmount('');
    setKeyType('');
    setKey('');
    setErrors({});
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || saldo === undefined || negative) return;
    const amountCents = amount.trim() === '' ? null : parseBrlInput(amount);
    const problem = withdrawalError({ amountCents, balanceCents: toCents(saldo), keyType, key });
    if (problem || amountCents === null || !isPixKeyType(keyType)) {
      if (problem) showError(problem.field, problem.message);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const answer = await request(api.withdraw, {
        body: {
          description: messages.withdrawal.defaultDescription,
          receiver_document: getUser()?.cpfCnpj ?? '',
          amount: centsToReais(amountCents),
          pix: { key: normalizePixKey(keyType, key), type: keyType },
        },
      });
      if (answer.error) {
        toast.error(answer.error, { title: ERROR_TOAST_TITLE, position });
      } else if (answer.Sucesso) {
        toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, position });
        reset();
      } else {
        toast.error(answer.Mensagem, { title: ERROR_TOAST_TITLE, position });
      }
    } catch (failure) {
      if (isApiError(failure)) {
        if (!failure.isUnauthorized) {
          const [fieldName, list] = Object.entries(failure.errors).find(([name, l]) => fieldOf(name) && l.length > 0) ?? [];
          const field = fieldName ? fieldOf(fieldName) : null;
          if (field && list?.[0]) showError(field, list[0]);
          else toast.error(bodyError(failure.body) ?? failure.message, { title: ERROR_TOAST_TITLE, position });
        }
      } else {
        console.error(failure);
        toast.error(messages.session.internalError, { title: ERROR_TOAST_TITLE, position });
      }
    } finally {
      setSubmitting(false);
      // SPEC 2: after any response the balance is reloaded (and the eligibility checked again).
      void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      void queryClient.invalidateQueries({ queryKey: eligibilityQueryKey });
    }
  };

  const mask = keyType ? keyMasks[keyType] : undefined;
  const keyProps = {
    label: 'Chave Pix',
    name: 'chave',
    error: errors.pixKey,
    disabled: !keyType || fieldsDisabled,
    placeholder: keyType ? keyPlaceholders[keyType] : 'Escolha o tipo primeiro',
    autoComplete: 'off',
  };

  return (
    <Stack gap="md">
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" aria-live="polite" aria-busy={balance.isFetching}>
        <Group justify="space-between" align="baseline" gap="xs">
          <Text fw={600} c="gray.7">
            Saldo de pedágio:
          </Text>
          {saldo === undefined ? (
            balance.isError ? (
              <Text size="sm">Não foi possível mostrar seu saldo agora.</Text>
            ) : (
              <Skeleton height={32} width={160} radius="sm" />
            )
          ) : (
            <Money reais={saldo} colorPositive fz="calc(1.75rem * var(--mantine-scale))" fw={700} lh={1.2} data-testid="saldo-saque" />
          )}
        </Group>
      </Paper>

      {negative ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden />}>
          <Text fw={600}>{messages.withdrawal.insufficientBalance}</Text>
        </Alert>
      ) : null}

      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
        <form onSubmit={onSubmit} noValidate aria-label="Sacar saldo">
          <Stack gap="md">
            <CurrencyInput
              label="Valor"
              name="valor"
              value={amount}
              onChange={(next) => {
                setAmount(next);
                setErrors((current) => ({ ...current, amount: undefined }));
              }}
              error={errors.amount}
              disabled={fieldsDisabled}
              inputRef={amountRef}
            />
            <NativeSelect
              ref={typeRef}
              label="Tipo da Chave Pix"
              size="md"
              name="tipoChave"
              value={keyType}
              onChange={(event) => onTypeChange(event.currentTarget.value)}
              error={errors.pixType}
              disabled={fieldsDisabled}
              data={[
                { value: '', label: 'Selecione o tipo da chave' },
                ...PIX_KEY_TYPES.map((type) => ({ value: type, label: pixKeyTypeLabels[type] })),
              ]}
            />
            {keyType && mask ? (
              <MaskedInput
                key={keyType}
                {...keyProps}
                maskOptions={mask}
                value={key}
                onChange={(next) => {
                  setKey(next);
                  if (next) setErrors((current) => ({ ...current, pixKey: undefined }));
                }}
                inputRef={keyRef}
                inputMode={keyInputModes[keyType]}
              />
            ) : (
              <TextInput
                key={keyType || 'none'}
                {...keyProps}
                ref={keyRef}
                value={key}
                onChange={(event) => {
                  setKey(event.currentTarget.value);
                  setErrors((current) => ({ ...current, pixKey: undefined }));
                }}
                inputMode={keyType ? keyInputModes[keyType] : 'text'}
                type={keyType === 'EMAIL' ? 'email' : 'text'}
                autoCapitalize="none"
                spellCheck={false}
              />
            )}
            <Button
              type="submit"
              fullWidth
              size="lg"
              loading={submitting}
              disabled={negative || saldo === undefined}
              leftSection={<IconCash size={22} aria-hidden />}
            >
              Sacar
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
