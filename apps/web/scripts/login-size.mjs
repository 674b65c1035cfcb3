#!/usr/bin/env node
// Gzip bytes of the JavaScript and CSS the /login route loads: the entry (index.html) plus the
// LoginPage chunk and their static imports, from dist/.vite/manifest.json. Run after the build.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const roots = ['index.html', 'src/features/auth/LoginPage.tsx'];

const files = new Set();
const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  const entry = manifest[key];
  if (!entry) throw new Error(`Ausente no manifest: ${key}`);
  files.add(entry.file);
  for (const css of entry.css ?? []) files.add(css);
  for (const dep of entry.imports ?? []) visit(dep);
};
roots.forEach(visit);

let js = 0;
let css = 0;
const rows = [];
for (const file of files) {
  if (file.endsWith('.html')) continue;
  const bytes = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.css')) css += bytes;
  else js += bytes;
  rows.push([file, bytes]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, bytes] of rows) console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KB  ${file}`);
const total = js + css;
console.log(`JS ${(js / 1024).toFixed(1)} KB + CSS ${(css / 1024).toFixed(1)} KB = ${(total / 1024).toFixed(1)} KB gzip`);
if (process.argv.includes('--json')) console.log(JSON.stringify({ js, css, total, files: rows.map(([f]) => f) }));
