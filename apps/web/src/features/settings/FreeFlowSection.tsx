import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { freeFlowMessages } from '@portal/domain';
import { IconPlus, IconRoad } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { askFreeFlowConsent, FreeFlowPlateSwitches } from '../../components/ui/FreeFlowPlateSwitches';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { freeFlowPlatesQuery, useSetFreeFlowPlates } from '../../lib/freeFlow';
import { freeFlowTexts as t } from '../../lib/freeFlowTexts';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { FormSkeleton, LoadFailed } from './LoadStates';

/** The section's anchor: the free-flow screen's 'Abrir Configurações' lands here (/configuracoes#pedagio-sem-cancela). */
const SECTION_ID = 'pedagio-sem-cancela';
const TITLE_ID = 'pedagio-sem-cancela-titulo';

/** 'Ligar em todas as placas': the consent for every plate still off, then one call without veiculoId (every vehicle). */
function AllOnButton({ off }: { off: readonly string[] }) {
  const online = useOnline();
  const set = useSetFreeFlowPlates();
  const turnAllOn = async () => {
    if (!(await askFreeFlowConsent(off, true))) return;
    set.mutate(
      { ativo: true, automatico: false },
      {
        onSuccess: (answer) => {
          if (answer.Sucesso) toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE });
          else toast.error(answer.Mensagem, { title: ERROR_TOAST_TITLE });
        },
        onError: (error) => toastFailure(error),
      },
    );
  };
  return (
    <Button
      fullWidth
      size="md"
      variant="light"
      leftSection={<IconRoad size={20} aria-hidden />}
      loading={set.isPending}
      disabled={!online || off.length === 0}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      onClick={() => void turnAllOn()}
    >
      {off.length === 0 ? t.allOnDone : t.allOn}
    </Button>
  );
}

/**
 * Decision 76 'Pedágio sem cancela': each plate with its two switches (on with the consent; paid
 * automatically), and every plate on at once. Reads its own data, as the other sections.
 */
export function FreeFlowSection() {
  const plates = useQuery(freeFlowPlatesQuery);
  const list = plates.data?.Placas;
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  const loaded = list !== undefined;

  // Opened from 'Pedágios sem cancela' with no plate on: the plates are what the driver came for.
  useEffect(() => {
    if (loaded && location.hash === `#${SECTION_ID}`) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded, location.hash]);
  let body;
  if (!list && plates.isError) {
    body = <LoadFailed title={t.platesFailed} error={plates.error} retrying={plates.isFetching} onRetry={() => void plates.refetch()} />;
  } else if (!list) body = <FormSkeleton fields={2} />;
  else if (list.length === 0) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t.platesEmpty}</Text>
        <Button component={Link} to="/tags/adicionar" variant="light" size="md" leftSection={<IconPlus size={20} aria-hidden />}>
          {t.addVehicle}
        </Button>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md">
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((plate) => (
            <Paper component="li" key={plate.veiculoId} withBorder radius="md" p="sm">
              <Text fw={800} size="lg" style={{ letterSpacing: '0.04em' }} mb={4}>
                {plate.placa}
              </Text>
              <FreeFlowPlateSwitches plate={plate} withHelp />
            </Paper>
          ))}
        </Stack>
        <AllOnButton off={list.filter((plate) => !plate.ativo).map((plate) => plate.placa)} />
      </Stack>
    );
  }
  return (
    <Paper
      ref={section}
      component="section"
      id={SECTION_ID}
      aria-labelledby={TITLE_ID}
      withBorder
      shadow="xs"
      p={{ base: 'md', sm: 'xl' }}
      radius="lg"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id={TITLE_ID}>
          {freeFlowMessages.optInLabel}
        </Title>
        <Text size="sm">{t.sectionIntro}</Text>
        {body}
      </Stack>
    </Paper>
  );
}
