import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Deep road-blue: the one strong colour (buttons, links, focus ring). Shade 8 on white ≈ 10:1. */
const road: MantineColorsTuple = [
  '#eaf1fc',
  '#d3e0f5',
  '#a6bfe9',
  '#759cdc',
  '#4d7ed2',
  '#336bcc',
  '#1f57b8',
  '#12479e',
  '#0b3d91',
  '#062c6e',
];

/** Brazilian road-sign green, for positive money only. Shade 8 on white ≈ 6.6:1. */
const sign: MantineColorsTuple = [
  '#e6f6ec',
  '#cdebd8',
  '#9dd7b2',
  '#68c189',
  '#3eae67',
  '#23a251',
  '#0f8a40',
  '#087a37',
  '#006b2f',
  '#005224',
];

/** Red is for negative balances and errors only; shade 9 is the text shade (≈ 5.4:1). */
const red: MantineColorsTuple = [
  '#fff0f0',
  '#ffdede',
  '#fcbcbc',
  '#f69898',
  '#ef7272',
  '#e65555',
  '#d63c3c',
  '#c22f2f',
  '#a82424',
  '#8c1c1c',
];

/**
 * Placeholder grey: 4.7:1 on white (readable in sunlight), yet clearly lighter than typed text
 * (black, 18:1), so an example never reads as a value. Mantine's gray 6 is 3.3:1.
 */
export const PLACEHOLDER_COLOR = '#6c757d';

/** A toast's message under its title: Mantine writes it in gray 6 (3.3:1); gray 8 is 11.5:1. */
export const TOAST_MESSAGE_COLOR = '#343a40';

export const theme = createTheme({
  colors: { road, sign, red },
  primaryColor: 'road',
  primaryShade: { light: 8, dark: 5 },
  white: '#ffffff',
  black: '#111418',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  fontFamilyMonospace: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
  headings: {
    fontWeight: '700',
    sizes: {
      h1: { fontSize: '1.625rem', lineHeight: '1.25' },
      h2: { fontSize: '1.375rem', lineHeight: '1.3' },
      h3: { fontSize: '1.125rem', lineHeight: '1.35' },
    },
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  respectReducedMotion: true,
  other: {
    /** The content column on desktop (phones get one full-width column). */
    containerWidth: 960,
    /** Money colours, as CSS values, for the Money component. */
    positiveMoneyColor: 'var(--mantine-color-sign-8)',
    negativeMoneyColor: 'var(--mantine-color-red-9)',
  },
  components: {
    // Plain objects (not Component.extend) so the theme does not pull every component into /login.
    Button: { defaultProps: { size: 'md' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    InputBase: { defaultProps: { size: 'md' } },
    Select: { defaultProps: { size: 'md' } },
    Checkbox: { defaultProps: { size: 'md' } },
    Alert: { defaultProps: { variant: 'light' } },
    Container: { defaultProps: { size: 960 } },
    Loader: { defaultProps: { type: 'dots' } },
    Notification: { styles: { description: { color: TOAST_MESSAGE_COLOR } } },
  },
});

/** Dimmed text on white must stay readable in sunlight (gray 7 ≈ 7:1 instead of gray 6 ≈ 3.3:1). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': PLACEHOLDER_COLOR,
  },
  dark: {},
});
