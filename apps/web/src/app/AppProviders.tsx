import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import themeVariables from 'virtual:portal-theme-css';
import { cssVariablesResolver, theme } from './theme';

/** Providers every route needs. Query, modals and toasts live in the authenticated shell. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" withCssVariables={false}>
      {/* Every theme variable (so default-css-variables.css is not shipped, styles.ts), computed when
          the app is built (build/themeCss.ts): Mantine computed them in every page's first render. */}
      <style data-mantine-styles="true" dangerouslySetInnerHTML={{ __html: themeVariables }} />
      {children}
    </MantineProvider>
  );
}
