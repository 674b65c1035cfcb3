import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme';

/** Providers every route needs. Query, modals and toasts live in the authenticated shell. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      // All theme variables come from here, so default-css-variables.css is not shipped (styles.ts).
      deduplicateCssVariables={false}
    >
      {children}
    </MantineProvider>
  );
}
