/** Debian's Chromium, never a downloaded browser; the flags keep it off the (closed) network. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The two widths every screen is looked at (spec: a 360 px phone on the road, and a desktop). */
export const viewports = {
  phone: { width: 360, height: 800 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof viewports;
