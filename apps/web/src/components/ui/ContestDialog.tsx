import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Radio, Stack, Text, Textarea } from '@mantine/core';
import { openContestRequest, type OpenContest, type OpenContestRequest } from '@portal/contract';
import { CONTEST_REASONS, CONTEST_TEXT_MAX, contestReasonLabels, contestTexts } from '@portal/domain';
import { IconInfoCircle, IconSend } from '@tabler/icons-react';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useOpenContest } from '../../lib/contests';
import { OFFLINE_REASON, useOnline } from '../../lib/offline';
import { DateTime } from './DateTime';
import { Dialog } from './Dialog';
import { Money } from './Money';
import { SUCCESS_TOAST_TITLE, toast } from './toast';
import { toastFormFailure } from './toastFailure';

/** The passage a contest is about, as the screen that offers it shows it. */
export interface ContestedPassage {
  /** The passage's id (the statement row's or the VPO passage's `passagem.id`). */
  id: number;
  praca: string;
  dataPassagem: string;
  /** What it charged, in reais (positive). */
  valor: number;
  possivelDuplicada: boolean;
}

/** The server's 422 field names (the contract's openContestRequest) are the form's own. */
const SERVER_FIELDS = { motivo: 'motivo', descricao: 'descricao' } as const;

/**
 * Decision 56 'Contestar passagem': the passage, the reason (preselected 'Cobrança duplicada' when
 * the passage was flagged as one), a text ('Outro' needs it), what happens next, 'Enviar
 * contestação' and 'Voltar'. Above any other dialog (the VPO's details open it).
 */
export function ContestDialog({ passage, opened, onClose }: { passage: ContestedPassage; opened: boolean; onClose: () => void }) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={contestTexts.dialogTitle}
      centered
      size="md"
      zIndex={300}
      closeButtonProps={{ 'aria-label': 'Fechar' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {/* Drawn only while open: each opening starts a new form. */}
      <ContestForm passage={passage} onClose={onClose} />
    </Dialog>
  );
}

function ContestForm({ passage, onClose }: { passage: ContestedPassage; onClose: () => void }) {
  const open = useOpenContest();
  const online = useOnline();
  const offlineId = useId();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<OpenContestRequest, unknown, OpenContest>({
    resolver: zodResolver(openContestRequest),
    defaultValues: { passagemId: passage.id, motivo: passage.possivelDuplicada ? 'DUPLICADA' : undefined, descricao: '' },
  });
  const motivo = useWatch({ control, name: 'motivo' });
  const descricao = useWatch({ control, name: 'descricao' });

  const onSubmit = handleSubmit((body) =>
    open.mutate(
      { passagemId: body.passagemId, motivo: body.motivo, ...(body.descricao === null ? {} : { descricao: body.descricao }) },
      {
        onSuccess: (answer) => {
          toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
          onClose();
        },
        onError: (error) => toastFormFailure(error, setError, SERVER_FIELDS),
      },
    ),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Paper withBorder radius="md" px="sm" py="xs" bg="gray.0" component="section" aria-label={contestTexts.passage}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {passage.praca}
          </Text>
          <Text size="sm" c="gray.7" component="div" style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8 }}>
            <DateTime value={passage.dataPassagem} />
            <Money reais={passage.valor} fw={700} style={{ whiteSpace: 'nowrap', color: 'var(--mantine-color-dark-9)' }} />
          </Text>
        </Paper>

        <Controller
          control={control}
          name="motivo"
          render={({ field }) => (
            <Radio.Group
              name={field.name}
              label={contestTexts.reason}
              value={field.value ?? ''}
              onChange={field.onChange}
              error={errors.motivo?.message}
              styles={{ label: { fontWeight: 600, marginBottom: 4 } }}
            >
              <Stack gap={10} mt={4}>
                {CONTEST_REASONS.map((reason, index) => (
                  <Radio
                    key={reason}
                    value={reason}
                    label={contestReasonLabels[reason]}
                    size="md"
                    ref={index === 0 ? field.ref : undefined}
                    onBlur={field.onBlur}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />

        <Controller
          control={control}
          name="descricao"
          render={({ field }) => (
            <Textarea
              ref={field.ref}
              name={field.name}
              label={contestTexts.text}
              description={motivo === 'OUTRO' ? contestTexts.textRequired : contestTexts.textOptional}
              withAsterisk={motivo === 'OUTRO'}
              size="md"
              rows={4}
              resize="vertical"
              maxLength={CONTEST_TEXT_MAX}
              value={typeof field.value === 'string' ? field.value : ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.descricao?.message}
              inputWrapperOrder={['label', 'description', 'input', 'error']}
            />
          )}
        />
        <Text size="xs" c="gray.7" mt={-10} ta="right" aria-live="off">
          {contestTexts.textCount(typeof descricao === 'string' ? descricao.length : 0)}
        </Text>

        <Text size="sm" c="gray.8" style={{ display: 'flex', gap: 8 }}>
          <IconInfoCircle size={20} aria-hidden style={{ flexShrink: 0, color: 'var(--mantine-color-road-8)' }} />
          <span>{contestTexts.whatHappens}</span>
        </Text>

        {/* The screen's notice is under the dialog: the dialog says it too (founding decision 22). */}
        {online ? null : (
          <Text size="sm" fw={600} id={offlineId}>
            {OFFLINE_REASON}
          </Text>
        )}
        <Stack gap="sm">
          <Button
            type="submit"
            size="md"
            fullWidth
            leftSection={<IconSend size={20} aria-hidden />}
            loading={open.isPending}
            disabled={!online}
            aria-describedby={online ? undefined : offlineId}
          >
            {contestTexts.submit}
          </Button>
          <Button variant="default" size="md" fullWidth onClick={onClose}>
            {contestTexts.back}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
