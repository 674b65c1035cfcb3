/** An answer a prerendered page's first script (scripts/boot.ts) fetched and painted before the app arrived. */
export interface EarlyAnswer {
  /** The API's answer, as it came (the caller parses it with the contract). */
  data: unknown;
  /** When it came (Date.now()): the cache's updatedAt, so the data is as old as it is. */
  at: number;
  /** The plate asked for, on the tag detail page. */
  plate?: string;
}

/**
 * The answer boot.ts left on <html> under this attribute, once: the attribute is removed, so a later
 * screen never takes an old answer for a new one. Null when boot.ts painted nothing.
 */
export function takeEarlyAnswer(attribute: string): EarlyAnswer | null {
  const root = document.documentElement;
  const raw = root.getAttribute(attribute);
  if (raw === null) return null;
  root.removeAttribute(attribute);
  try {
    const answer = JSON.parse(raw) as Partial<EarlyAnswer>;
    if (typeof answer.at !== 'number') throw new Error('sem o momento da resposta');
    return { data: answer.data, at: answer.at, ...(typeof answer.plate === 'string' ? { plate: answer.plate } : {}) };
  } catch (error) {
    console.error('Resposta antecipada ilegível', error);
    return null;
  }
}
