/**
 * Two pieces of Mantine's code that cost every page its start on a phone, changed as the app is
 * built (decision 59, 'Stop 32'). Each change fails the build if Mantine's code is no longer what it
 * was written against: review it on every Mantine upgrade.
 */
import type { Plugin } from 'vite';

interface Patch {
  file: RegExp;
  apply: (code: string) => string;
}

function replaceExactly(code: string, search: string, replacement: string, what: string): string {
  if (!code.includes(search)) throw new Error(`mantineStartup: ${what} changed in this Mantine; review build/mantineStartup.ts`);
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

const PATCHES: Patch[] = [
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineCssVariables[\\/]remove-default-variables\.mjs$/,
    apply: lazyDefaultVariables,
  },
  { file: /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/, apply: stableId },
];

/**
 * The two changes above, in the browser's bundle. The prerender and the tests load Mantine as it is
 * (Node imports it unchanged): there useId's first value is already React's, and the defaults are
 * never asked for.
 */
export function mantineStartup(): Plugin {
  return {
    name: 'portal-mantine-startup',
    transform(code, id) {
      const patch = PATCHES.find((p) => p.file.test(id));
      return patch ? patch.apply(code) : undefined;
    },
  };
}
