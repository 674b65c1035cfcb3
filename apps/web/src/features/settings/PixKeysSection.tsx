import { Box, Button, Divider, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { SavedPixKey } from '@portal/contract';
import { formatBrl, formatDateTime, NEW_PIX_KEY_CAP_CENTS, pixKeyTypeLabels } from '@portal/domain';
import { IconHourglassHigh, IconKey, IconTrash, IconUserCheck } from '@tabler/icons-react';
import { useDeferredValue, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { formatPixKey } from '../../components/ui/pixKey';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/errors';
import { formatReais } from '../../lib/format';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { AddPixKeyForm } from './AddPixKeyForm';
import { usePixKeys, useRemovePixKey } from './api/payouts';
import { LoadFailed } from './LoadStates';

/** The section's anchor: the dashboard's notice of a new key links here (/configuracoes#chaves-pix). */
const SECTION_ID = 'chaves-pix';

const OWN_KEY_LABEL = 'Seu CPF/CNPJ';

/** 'DD/MM/AAAA HH:mm' and 'DD/MM HH:mm' in São Paulo. */
const toMinute = (iso: string) => formatDateTime(iso).slice(0, 16);
const dayAndTime = (iso: string) => {
  const full = formatDateTime(iso);
  return `${full.slice(0, 5)} ${full.slice(11, 16)}`;
};

/** A key in its first 24 hours: what it may still receive, and until when. */
function capText(until: string, left: number): string {
  const when = `Até ${dayAndTime(until)}`;
  return left > 0
    ? `${when} pode receber até ${formatReais(left)}`
    : `${when} não pode receber mais nada (já recebeu ${formatBrl(NEW_PIX_KEY_CAP_CENTS)})`;
}

/** 'Telefone (11) 98765-4321': how the list and the confirmation name a key. */
const keyName = (key: SavedPixKey) => `${pixKeyTypeLabels[key.tipo]} ${formatPixKey(key.tipo, key.chave)}`;

function RemoveKey({ pixKey }: { pixKey: SavedPixKey & { id: number } }) {
  const remove = useRemovePixKey();
  const online = useOnline();

  const onRemove = async () => {
    const confirmed = await confirmAction({
      title: 'Remover chave Pix',
      message: (
        <Text size="md">
          Remover a chave <span style={{ whiteSpace: 'nowrap' }}>{keyName(pixKey)}</span>? Um saque para ela vai pedir sua senha de novo.
        </Text>
      ),
      confirmLabel: 'Remover',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(pixKey.id, {
      onSuccess: (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE }),
      onError: (error) => toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE }),
    });
  };

  return (
    <Button
      variant="light"
      color="red"
      h={44}
      leftSection={<IconTrash size={18} aria-hidden />}
      loading={remove.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      aria-label={`Remover chave ${keyName(pixKey)}`}
      onClick={() => void onRemove()}
      // Wrapped under the key on a phone: in line with its text (the icon's width and the gap).
      ml={{ base: 34, xs: 0 }}
      style={{ flexShrink: 0 }}
    >
      Remover
    </Button>
  );
}

function KeyLine({ pixKey, first }: { pixKey: SavedPixKey; first: boolean }) {
  const Icon = pixKey.propria ? IconUserCheck : IconKey;
  return (
    <Box component="li" py="sm" style={first ? undefined : { borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      {/* 'Remover' beside the key where there is room; on a phone it wraps under the key, which keeps the whole width. */}
      <Group gap="sm" align="flex-start" justify="space-between">
        <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Icon size={22} color="var(--mantine-color-road-8)" style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" fw={600} c="gray.7">
              {pixKey.propria ? OWN_KEY_LABEL : pixKeyTypeLabels[pixKey.tipo]}
            </Text>
            <Text fw={600} className="tabular-nums" style={{ overflowWrap: 'anywhere' }}>
              {formatPixKey(pixKey.tipo, pixKey.chave)}
            </Text>
            {pixKey.propria ? (
              <Text size="sm" c="gray.7">
                Sempre pode receber seus saques.
              </Text>
            ) : null}
            {pixKey.salvaEm ? (
              <Text size="sm" c="gray.7">
                Salva em {toMinute(pixKey.salvaEm)}
              </Text>
            ) : null}
            {pixKey.limitadaAte && pixKey.restanteLimitada !== null ? (
              <Group gap={6} wrap="nowrap" align="flex-start">
                <IconHourglassHigh size={18} color="var(--mantine-color-orange-9)" style={{ flexShrink: 0, marginTop: 1 }} aria-hidden />
                <Text size="sm" c="dark.7" fw={600}>
                  {capText(pixKey.limitadaAte, pixKey.restanteLimitada)}
                </Text>
              </Group>
            ) : null}
          </Stack>
        </Group>
        {pixKey.id !== null && !pixKey.propria ? <RemoveKey pixKey={{ ...pixKey, id: pixKey.id }} /> : null}
      </Group>
    </Box>
  );
}

/** Decision 44, 'Minhas chaves Pix': the driver's own CPF/CNPJ first (never removed), the keys saved, and a new one. */
export function PixKeysSection() {
  const keys = usePixKeys();
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  const list = useDeferredValue(keys.data?.Chaves);
  const loaded = list !== undefined;

  // Opened from the dashboard's notice of a new key: the keys are what the driver came for.
  useEffect(() => {
    if (loaded && location.hash === `#${SECTION_ID}`) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded, location.hash]);

  // The driver's own key first, whatever order the server sends.
  const ordered = list ? [...list].sort((a, b) => Number(b.propria) - Number(a.propria)) : [];

  return (
    <Paper
      ref={section}
      component="section"
      id={SECTION_ID}
      aria-labelledby="minhas-chaves-pix"
      withBorder
      shadow="xs"
      p={{ base: 'md', sm: 'xl' }}
      radius="lg"
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id="minhas-chaves-pix">
            Minhas chaves Pix
          </Title>
          <Text size="sm" c="gray.7">
            Saques para estas chaves não pedem sua senha. Não reconhece uma chave? Remova-a e troque sua senha.
          </Text>
        </Stack>
        {list ? (
          <Stack component="ul" gap={0} aria-label="Minhas chaves Pix" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {ordered.map((key, index) => (
              <KeyLine key={key.id ?? 'propria'} pixKey={key} first={index === 0} />
            ))}
          </Stack>
        ) : keys.isError ? (
          <LoadFailed
            title="Não foi possível carregar suas chaves Pix"
            error={keys.error}
            retrying={keys.isFetching}
            onRetry={() => void keys.refetch()}
          />
        ) : (
          <Stack gap="sm" aria-busy>
            <Skeleton height={56} radius="sm" />
            <Skeleton height={56} radius="sm" />
          </Stack>
        )}
        <Divider />
        <AddPixKeyForm />
      </Stack>
    </Paper>
  );
}
