import { Stack, type StackProps } from '@mantine/core';

/** A form screen's column: wide enough for a label and a value, narrow enough to read at a glance. */
const FORM_PAGE_WIDTH = 560;

interface FormPageProps extends StackProps {
  /** The column's maximum width in px (a detail screen with a side-by-side card may want more). */
  width?: number;
}

/**
 * The one layout of the form screens inside the shell: one column, centred on a wide screen
 * (no empty half page at 1280 px), the whole width on a phone.
 */
export function FormPage({ width = FORM_PAGE_WIDTH, children, ...rest }: FormPageProps) {
  return (
    <Stack gap="lg" w="100%" maw={width} mx="auto" {...rest}>
      {children}
    </Stack>
  );
}
