/**
 * Build-time rendering (build/renderPage.tsx): the signed-in frame is drawn without a session (no token,
 * no driver's name: those are the phone's, read after hydration), and each screen's title is
 * remembered for the page's <title>.
 */
let active: { title?: string | null } | null = null;

/** True while a page is being rendered at build time. */
export const isPrerendering = (): boolean => active !== null;

/** Runs a build-time render; returns what it drew and the title its screen asked for. */
export function prerendering<T>(render: () => T): { result: T; title: string | null | undefined } {
  const previous = active;
  const run: { title?: string | null } = {};
  active = run;
  try {
    return { result: render(), title: run.title };
  } finally {
    active = previous;
  }
}

/** usePageTitle's side during a build-time render. */
export function notePageTitle(title: string | null | undefined): void {
  if (active) active.title = title;
}
