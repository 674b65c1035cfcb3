import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

/** pdf.js's copies of the standard fonts: the text of a PDF drawn in Helvetica is read without a warning. */
const STANDARD_FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** A PDF's text, page by page, whitespace collapsed (as a reader's search would see it). */
export async function pdfText(bytes: Buffer | Uint8Array): Promise<{ pages: string[] }> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    verbosity: VerbosityLevel.ERRORS,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await pdf.destroy();
  return { pages };
}

/** A PDF's text, every page, whitespace collapsed. */
export async function pdfPlainText(bytes: Buffer | Uint8Array): Promise<string> {
  return (await pdfText(bytes)).pages.join(' ').replace(/\s+/g, ' ');
}

/** A ZIP's entries in their order, each whole, checked against its CRC by yauzl. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (error, zip: ZipFile | undefined) => {
      if (error || !zip) return reject(error ?? new Error('ZIP ilegível'));
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError ?? new Error(entry.fileName));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** What an answer says, as text: a ZIP's files one after the other (its bytes are compressed), anything else as sent. */
export async function answerText(res: { headers: Record<string, unknown>; body: string; rawPayload: Buffer }): Promise<string> {
  if (res.headers['content-type'] !== 'application/zip') return res.body;
  const files = await unzip(res.rawPayload);
  return [...files.values()].map((bytes) => bytes.toString('utf8')).join('\n');
}
