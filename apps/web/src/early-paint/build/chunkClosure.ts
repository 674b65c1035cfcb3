import type { Rolldown } from 'vite';

/** The chunks of the screens' modules and everything they import, statically, in load order. */
export function chunkClosure(bundle: Rolldown.OutputBundle, modules: string[]): Rolldown.OutputChunk[] {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Map<string, Rolldown.OutputChunk>();
  // Chunks may import each other both ways (legal in ES modules): each is entered once.
  const entered = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (entered.has(chunk.fileName)) return;
    entered.add(chunk.fileName);
    for (const dep of chunk.imports) {
      const next = byName.get(dep);
      if (next) visit(next);
    }
    seen.set(chunk.fileName, chunk);
  };
  for (const id of modules) {
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`prerender: no chunk for ${id}`);
    visit(chunk);
  }
  return [...seen.values()];
}
