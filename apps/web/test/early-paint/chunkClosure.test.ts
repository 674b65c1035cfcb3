import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { chunkClosure } from '../../src/early-paint/build/chunkClosure';

/** A bundle of chunks by file name, each importing the files listed, the first one a screen's. */
function bundle(chunks: Record<string, { imports: string[]; facadeModuleId?: string }>): Rolldown.OutputBundle {
  return Object.fromEntries(
    Object.entries(chunks).map(([fileName, { imports, facadeModuleId = null }]) => [
      fileName,
      { type: 'chunk', fileName, imports, facadeModuleId } as unknown as Rolldown.OutputChunk,
    ]),
  );
}

describe("the prerendered page's chunks", () => {
  it('lists a screen and what it imports, each once, the imported first', () => {
    const chunks = chunkClosure(
      bundle({
        'screen.js': { imports: ['shared.js', 'mantine.js'], facadeModuleId: '/src/Screen.tsx' },
        'shared.js': { imports: ['mantine.js'] },
        'mantine.js': { imports: [] },
        'other.js': { imports: [] },
      }),
      ['/src/Screen.tsx'],
    );
    expect(chunks.map((c) => c.fileName)).toEqual(['mantine.js', 'shared.js', 'screen.js']);
  });

  it('ends on chunks that import each other (legal in ES modules), which once overflowed the stack', () => {
    const chunks = chunkClosure(
      bundle({
        'screen.js': { imports: ['a.js'], facadeModuleId: '/src/Screen.tsx' },
        'a.js': { imports: ['b.js'] },
        'b.js': { imports: ['a.js'] },
      }),
      ['/src/Screen.tsx'],
    );
    expect(chunks.map((c) => c.fileName).sort()).toEqual(['a.js', 'b.js', 'screen.js']);
  });

  it('refuses a screen with no chunk of its own', () => {
    expect(() => chunkClosure(bundle({ 'x.js': { imports: [] } }), ['/src/Missing.tsx'])).toThrow(
      'prerender: no chunk for /src/Missing.tsx',
    );
  });
});
