import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's maps name every folder of the apps: each top-level folder of apps/<app>/src,
 * every server module and every web feature, by its path (`http/`, `modules/ledger/`,
 * `features/auth/`) in a code block, a list or a table of the app's section ("### The server
 * (apps/server/src)", "### The web app (apps/web/src)"). The folders are read from disk, so a new
 * one fails here until the map says what it is.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const architecture = fs.readFileSync(path.join(repoRoot, 'docs', 'architecture.md'), 'utf8');

const foldersIn = (dir: string): string[] =>
  fs
    .readdirSync(path.join(repoRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The `### ` section whose heading names `src`, up to the next heading of its level or above. */
function sectionOf(markdown: string, src: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('### ') && line.includes(`(${src})`));
  if (start === -1) return '';
  const end = lines.findIndex((line, i) => i > start && /^#{1,3} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The lines of `section` that are a map: inside a fenced code block, a list item or a table row. */
function mapLines(section: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of section.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^\s*([-*]|\d+\.)\s/.test(line) || line.startsWith('|')) lines.push(line);
  }
  return lines;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a map line names `folder` (a path relative to src) as a path: `folder/`, not inside a longer one. */
const names = (lines: string[], folder: string): boolean => {
  const pattern = new RegExp(`(^|[\\s\`|(,])${escaped(folder)}/`);
  return lines.some((line) => pattern.test(line));
};

const apps = foldersIn('apps').filter((app) => fs.existsSync(path.join(repoRoot, 'apps', app, 'src')));

/** The folders each app's map must name: its top-level folders, and those of its areas. */
function foldersToName(app: string): string[] {
  const src = `apps/${app}/src`;
  const folders = foldersIn(src);
  const areas = ['modules', 'features'].filter((area) => folders.includes(area));
  return [...folders, ...areas.flatMap((area) => foldersIn(`${src}/${area}`).map((name) => `${area}/${name}`))];
}

describe("docs/architecture.md's maps name every folder of apps/*/src", () => {
  it('finds the apps, their sections and their areas', () => {
    expect(apps).toEqual(expect.arrayContaining(['server', 'web']));
    for (const app of apps) expect(mapLines(sectionOf(architecture, `apps/${app}/src`)), app).not.toEqual([]);
    expect(foldersToName('server')).toEqual(expect.arrayContaining(['http', 'modules', 'modules/ledger']));
    expect(foldersToName('web')).toEqual(expect.arrayContaining(['lib', 'features', 'features/auth']));
  });

  it.each(apps)('apps/%s/src: every folder is on the map', (app) => {
    const lines = mapLines(sectionOf(architecture, `apps/${app}/src`));
    expect(foldersToName(app).filter((folder) => !names(lines, folder))).toEqual([]);
  });

  it('a folder named only in prose, or only inside a longer path, is not on the map', () => {
    const section = ['Prose names `pwa/` and `modules/vpos/`.', '```', 'modules/tags/x/', 'src/lib/', '```', '- `modules/tags/`'];
    const lines = mapLines(section.join('\n'));
    expect(names(lines, 'pwa')).toBe(false);
    expect(names(lines, 'modules/vpos')).toBe(false);
    expect(names(lines, 'tags')).toBe(false);
    expect(names(lines, 'lib')).toBe(false);
    expect(names(lines, 'modules/tags')).toBe(true);
  });
});
