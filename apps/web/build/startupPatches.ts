/**
 * Pieces of Mantine's and react-hook-form's code that cost every page its start on a phone, changed
 * as the app is built (decision 59, 'Stop 32' and 'Stop 33'). Each change fails the build if the
 * library's code is no longer what it was written against: review it on every upgrade of either.
 */
import type { Plugin } from 'vite';
import { LIVE_ATTRIBUTE } from '../src/early-paint/pageMarkup';

interface Patch {
  file: RegExp;
  apply: (code: string) => string;
}

function replaceExactly(code: string, search: string, replacement: string, what: string): string {
  if (!code.includes(search)) throw new Error(`startupPatches: ${what} changed in this version; review build/startupPatches.ts`);
  return code.replace(search, () => replacement);
}

const EAGER_DEFAULTS = 'const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);';
const REMOVE_DEFAULTS_HEAD = 'function removeDefaultVariables(input) {';

/**
 * Mantine computes its default theme's ~600 CSS variables when the module runs, to leave them out of
 * the <style> it writes: half of the run of the module with Mantine's core, on every page. The app
 * writes no such <style> (withCssVariables={false}, build/themeCss.ts): computed at first use.
 */
export function lazyDefaultVariables(code: string): string {
  const lazy = replaceExactly(code, EAGER_DEFAULTS, 'let defaultCssVariables;', 'remove-default-variables.mjs');
  return replaceExactly(
    lazy,
    REMOVE_DEFAULTS_HEAD,
    `${REMOVE_DEFAULTS_HEAD}\n\tdefaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME);`,
    'remove-default-variables.mjs',
  );
}

const RANDOM_ID_BODY = `	const [uuid, setUuid] = useState(\`mantine-\${reactId.replace(/:/g, "")}\`);
	const hasInitializedRef = useRef(false);
	useIsomorphicEffect(() => {
		if (hasInitializedRef.current) return;
		hasInitializedRef.current = true;
		setUuid(randomId());
	}, []);
	if (typeof staticId === "string") return staticId;
	return uuid;`;

/**
 * Mantine's useId (every input, checkbox, modal) replaces React's id with a random one in a layout
 * effect: after hydration, a synchronous render of every form field, in the task that makes the
 * page live, and every id and label's 'for' rewritten. React's own id is unique in the page and the
 * same in the prerendered page and in the browser: kept.
 */
export function stableId(code: string): string {
  return replaceExactly(
    code,
    RANDOM_ID_BODY,
    `	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/:/g, "")}\`;`,
    'use-id.mjs',
  );
}

const FORM_READY_UPDATE = `        updateFormState((data) => ({
            ...data,
            isReady: true,
        }));`;

/**
 * useForm marks itself ready (formState.isReady, which the app never reads) with a state update in a
 * layout effect: a synchronous render of the whole form in the commit that makes the page live,
 * which also made React run every effect of the page in that same task. As a transition, it renders
 * later, in slices. The field registration reads control._formState.isReady, still set at once.
 */
export function formReadyInTransition(code: string): string {
  return replaceExactly(
    code,
    FORM_READY_UPDATE,
    `        React.startTransition(() => {\n${FORM_READY_UPDATE}\n        });`,
    'react-hook-form useForm',
  );
}

const PORTAL_REACT_IMPORT = 'import { useRef, useState } from "react";';
const PORTAL_MOUNT = `	useIsomorphicEffect(() => {
		setMounted(true);`;

/**
 * A Portal (the toasts' stacks, every dialog) shows its children only after a state update in a layout
 * effect, synchronous: in the commit of the hydration, a render of the toasts' containers and of the
 * dialogs' roots, and every effect of the page run in that one long task. Until the app is live
 * (LIVE_ATTRIBUTE, set by AppRoot once the page is hydrated) the update is a transition, rendered in slices
 * after the page shows; from then on, a dialog opened by a tap mounts at once, as before.
 */
export function portalMountInTransition(code: string): string {
  const imported = replaceExactly(code, PORTAL_REACT_IMPORT, 'import { startTransition, useRef, useState } from "react";', 'Portal.mjs');
  return replaceExactly(
    imported,
    PORTAL_MOUNT,
    `	useIsomorphicEffect(() => {
		if (document.documentElement.getAttribute("${LIVE_ATTRIBUTE}") === "true") setMounted(true);
		else startTransition(() => setMounted(true));`,
    'Portal.mjs',
  );
}

const PATCHES: Patch[] = [
  { file: /react-hook-form[\\/]dist[\\/]index\.esm\.mjs$/, apply: formReadyInTransition },
  { file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Portal[\\/]Portal\.mjs$/, apply: portalMountInTransition },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineCssVariables[\\/]remove-default-variables\.mjs$/,
    apply: lazyDefaultVariables,
  },
  { file: /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/, apply: stableId },
];

/**
 * The changes above, in the browser's bundle. The prerender and the tests load both libraries as they
 * are (Node imports them unchanged): there useId's first value is already React's, the defaults are
 * never asked for, and nothing hydrates.
 */
export function startupPatches(): Plugin {
  return {
    name: 'portal-startup-patches',
    transform(code, id) {
      const patch = PATCHES.find((p) => p.file.test(id));
      return patch ? patch.apply(code) : undefined;
    },
  };
}
