import { Button, Group, Input, Stack } from '@mantine/core';
import type { SavedPixKey } from '@portal/contract';
import { maskPixKey, pixKeyTypeLabels } from '@portal/domain';
import { IconKey, IconUserCheck } from '@tabler/icons-react';
import { useId } from 'react';
import { formatPixKey } from '../../components/ui/pixKey';

/** How a quick choice names its key: the whole key, but a random key (36 characters) shortened. */
function choiceText(key: SavedPixKey): string {
  const shown = key.tipo === 'EVP' ? maskPixKey(key.tipo, key.chave) : formatPixKey(key.tipo, key.chave);
  return `${key.propria ? `Seu ${pixKeyTypeLabels[key.tipo]}` : pixKeyTypeLabels[key.tipo]} ${shown}`;
}

/**
 * 'Minhas chaves Pix' as quick choices above the key fields: one press fills the type and the key
 * (decision 44: the driver's own and the saved keys receive without the password).
 */
export function SavedKeyChoices({
  keys,
  chosen,
  disabled,
  onChoose,
}: {
  keys: readonly SavedPixKey[];
  chosen: SavedPixKey | undefined;
  disabled: boolean;
  onChoose: (key: SavedPixKey) => void;
}) {
  const labelId = useId();
  return (
    <Stack gap={6}>
      {/* Drawn as the fields' labels are: the buttons below are the choices it names. */}
      <Input.Label labelElement="div" id={labelId} size="md">
        Minhas chaves Pix
      </Input.Label>
      <Group gap="xs" role="group" aria-labelledby={labelId}>
        {keys.map((key) => {
          const selected = chosen === key;
          const Icon = key.propria ? IconUserCheck : IconKey;
          return (
            <Button
              key={key.id ?? 'propria'}
              type="button"
              variant={selected ? 'filled' : 'default'}
              aria-pressed={selected}
              disabled={disabled}
              leftSection={<Icon size={18} aria-hidden />}
              onClick={() => onChoose(key)}
              maw="100%"
              styles={{
                root: { height: 'auto', minHeight: 44, paddingBlock: 6 },
                label: { whiteSpace: 'normal', textAlign: 'left', overflowWrap: 'anywhere' },
              }}
            >
              {choiceText(key)}
            </Button>
          );
        })}
      </Group>
    </Stack>
  );
}
