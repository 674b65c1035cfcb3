import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import { api } from '@portal/contract';
import { formatSerial, messages } from '@portal/domain';
import { useForm, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog } from '../../../components/ui/Dialog';
import { toast } from '../../../components/ui/toast';
import { OFFLINE_REASON, useOnline } from '../../../lib/offline';
import { useReplaceTag } from '../api/mutations';
import { showFormFailure } from '../formFailure';
import { NewSerialField } from '../tagFields';

/** spec §5 'Replace tag' (the contract's rule), and a new serial that is not the current one. */
const schema = api.replaceTag.body.superRefine((value, ctx) => {
  if (value.newSerialNumber === value.serialNumber) {
    ctx.addIssue({ code: 'custom', path: ['newSerialNumber'], message: messages.tag.sameSerial });
  }
});
type ReplaceForm = z.input<typeof schema>;
type ReplaceValues = z.output<typeof schema>;
const SERVER_FIELDS: Readonly<Record<string, Path<ReplaceForm>>> = { newSerialNumber: 'newSerialNumber' };

/** Swaps the tag's serial for a new one; the new tag keeps the state of the old. */
export function ReplaceTagModal({ opened, serialNumber, onClose }: { opened: boolean; serialNumber: string; onClose: () => void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title="Substituir tag" centered size="md" closeButtonProps={{ 'aria-label': 'Fechar' }}>
      {/* The modal unmounts its content when closed: each opening starts an empty form on the current serial. */}
      <ReplaceTagForm serialNumber={serialNumber} onClose={onClose} />
    </Dialog>
  );
}

function ReplaceTagForm({ serialNumber, onClose }: { serialNumber: string; onClose: () => void }) {
  const replace = useReplaceTag();
  const online = useOnline();
  const { control, handleSubmit, setError } = useForm<ReplaceForm, unknown, ReplaceValues>({
    resolver: zodResolver(schema),
    defaultValues: { serialNumber, newSerialNumber: '' },
  });
  const onSubmit = handleSubmit((values) =>
    replace.mutate(values, {
      onSuccess: () => {
        toast.success(messages.tag.replaced);
        onClose();
      },
      onError: (error) => showFormFailure(error, setError, SERVER_FIELDS),
    }),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">
          A tag atual{' '}
          <strong className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
            {formatSerial(serialNumber)}
          </strong>{' '}
          deixará de funcionar e a nova tag ficará no lugar dela, no mesmo estado.
        </Text>
        <NewSerialField control={control} name="newSerialNumber" />
        {/* The page's notice is under the modal: the modal says it too (founding decision 22). */}
        {online ? null : (
          <Text size="sm" fw={600} id="motivo-substituir-sem-conexao">
            {OFFLINE_REASON}
          </Text>
        )}
        <Group grow gap="sm">
          <Button variant="default" onClick={onClose} size="md">
            Voltar
          </Button>
          <Button
            type="submit"
            loading={replace.isPending}
            disabled={!online}
            aria-describedby={online ? undefined : 'motivo-substituir-sem-conexao'}
            size="md"
          >
            Substituir
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
