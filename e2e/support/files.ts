import { readFile } from 'node:fs/promises';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

/** A downloaded ZIP opened as a driver's archive tool would: every entry whole (yauzl checks CRC and size). */
export async function openZip(file: string): Promise<Map<string, Buffer>> {
  const bytes = await readFile(file);
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (error, zip: ZipFile | undefined) => {
      if (error || !zip) return reject(error ?? new Error('ZIP ilegível'));
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError ?? new Error(entry.fileName));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A PDF rendered to text by pdf.js (the engine of Firefox's viewer): its pages' words. */
export async function pdfWords(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS }).promise;
  const pages: string[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}
