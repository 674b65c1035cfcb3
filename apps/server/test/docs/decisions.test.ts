import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The decisions in docs/decisions keep the shape docs/decisions/README.md gives them: a page each,
 * the same four sections, every relation written in both files, and every figure they link to
 * present in bench/README.md.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const DECISIONS = `${repoRoot}docs/decisions/`;
const BENCH_README = `${repoRoot}bench/README.md`;

const SECTIONS = ['## Status', '## Context', '## Decision', '## Consequences'];
const MAX_LINES = 90;
const MAX_BYTES = 6.5 * 1024;

const PARTNER = {
  Amends: 'Amended by',
  'Amended by': 'Amends',
  Supersedes: 'Superseded by',
  'Superseded by': 'Supersedes',
} as const;
type Verb = keyof typeof PARTNER;

interface Relation {
  verb: Verb;
  /** The number the link shows, `[12]`. */
  label: number;
  /** The file it points at, `0012-login-page-prerendered.md`. */
  target: string;
}

const files = readdirSync(DECISIONS)
  .filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name))
  .sort();

const numberOf = (file: string) => Number(file.slice(0, 4));

/** The lines of a Markdown text outside its fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

function read(file: string) {
  const text = readFileSync(`${DECISIONS}${file}`, 'utf8');
  const prose = proseLines(text);
  const headings = prose.filter((line) => line.startsWith('## '));
  const statusStart = prose.indexOf('## Status');
  const statusEnd = prose.findIndex((line, i) => i > statusStart && line.startsWith('## '));
  const status = statusStart < 0 ? [] : prose.slice(statusStart + 1, statusEnd < 0 ? undefined : statusEnd).filter((line) => line.trim() !== '');
  const relations: Relation[] = status.flatMap((line) => {
    const verb = /^(Amended by|Amends|Superseded by|Supersedes)\b/.exec(line)?.[1] as Verb | undefined;
    if (!verb) return [];
    return [...line.matchAll(/\[(\d+)\]\((\d{4}-[a-z0-9-]+\.md)\)/g)].map((m) => ({ verb, label: Number(m[1]), target: m[2] ?? '' }));
  });
  return {
    text,
    firstLine: text.split('\n', 1)[0] ?? '',
    lineCount: text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length,
    bytes: Buffer.byteLength(text, 'utf8'),
    headings,
    status,
    relations,
  };
}

const decisions = new Map(files.map((file) => [file, read(file)]));

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, repeated ones numbered as GitHub numbers them. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const benchAnchors = anchorsOf(readFileSync(BENCH_README, 'utf8'));

describe('docs/decisions', () => {
  it('holds the decisions, numbered from 1 without a gap', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.map(numberOf)).toEqual(files.map((_, i) => i + 1));
  });

  describe.each(files)('%s', (file) => {
    const decision = decisions.get(file);
    if (!decision) throw new Error(`${file} was not read`);

    it('is titled "# N. …" with its own number', () => {
      expect(decision.firstLine).toMatch(new RegExp(`^# ${numberOf(file)}\\. \\S`));
    });

    it('has Status, Context, Decision and Consequences in that order, and no other section', () => {
      expect(decision.headings).toEqual(SECTIONS);
    });

    it('says in its Status when it was accepted', () => {
      expect(decision.status[0]).toMatch(/^Accepted \(\d{4}-\d{2}-\d{2}\)\./);
    });

    it(`is about a page: at most ${MAX_LINES} lines and ${MAX_BYTES} bytes`, () => {
      expect(decision.lineCount).toBeLessThanOrEqual(MAX_LINES);
      expect(decision.bytes).toBeLessThanOrEqual(MAX_BYTES);
    });

    it('writes every relation in both files: Amends / Amended by, Supersedes / Superseded by', () => {
      const unanswered = decision.relations.flatMap(({ verb, label, target }) => {
        const other = decisions.get(target);
        if (!other) return [`${verb} [${label}](${target}): no such decision`];
        if (label !== numberOf(target)) return [`${verb} [${label}](${target}): the link shows another number`];
        const answered = other.relations.some((r) => r.verb === PARTNER[verb] && r.target === file);
        return answered ? [] : [`${verb} [${label}](${target}), but ${target}'s Status has no "${PARTNER[verb]} [${numberOf(file)}](${file})"`];
      });
      expect(unanswered).toEqual([]);
    });

    it('links only to headings bench/README.md has', () => {
      const anchors = [...decision.text.matchAll(/\(\.\.\/\.\.\/bench\/README\.md#([^)\s]+)\)/g)].map((m) => m[1] ?? '');
      expect(anchors.filter((anchor) => !benchAnchors.has(anchor))).toEqual([]);
    });
  });
});
