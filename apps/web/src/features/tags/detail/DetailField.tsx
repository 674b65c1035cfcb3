import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A label over its value. `nowrap` keeps a document or serial on one line ('529.982.247-' / '25' never). */
export function DetailField({ label, nowrap = false, children }: { label: string; nowrap?: boolean; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text
        fw={600}
        component="div"
        className={nowrap ? 'tabular-nums' : undefined}
        style={nowrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
      >
        {children}
      </Text>
    </Stack>
  );
}
