import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Class names of CSS modules, the same in the browser's bundle and in the build-time render of the
 * prerendered pages (src/early-paint/build/prerenderPages.ts), which cannot run Vite's CSS pipeline: the file's name,
 * the class and a hash of the file's path inside the app.
 */
export function scopedClassName(local: string, filename: string, root: string): string {
  const file = path
    .relative(root, filename.split('?')[0] ?? filename)
    .split(path.sep)
    .join('/');
  const hash = createHash('sha256')
    .update(file)
    .digest('base64url')
    .slice(0, 6)
    .replace(/^[-\d]/, '_');
  return `${path.basename(file).replace(/\.module\.css$/, '')}_${local}_${hash}`;
}

/** The classes a CSS module defines, as its import exports them (class -> scoped name). */
export function cssModuleExports(css: string, filename: string, root: string): Record<string, string> {
  const classes = new Set([...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1] ?? ''));
  return Object.fromEntries([...classes].map((local) => [local, scopedClassName(local, filename, root)]));
}
