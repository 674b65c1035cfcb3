import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { PdfDoc } from './document.js';

/**
 * The document as a byte stream for driverFileRoute's FileAnswer.body, drawn step by step as the
 * client reads: `steps` draws a part of the document (e.g. 500 statement rows) each time it is
 * advanced, and is advanced only when the bytes already made have been taken (Readable.from pulls
 * on read(), so a slow client holds the drawing, not memory). A client that goes away destroys
 * the stream, which returns the iterator: no more rows are read. Without steps, the document is
 * drawn already (a one-page receipt) and only ended here.
 */
export function streamPdf(doc: PdfDoc, steps?: AsyncIterator<unknown> | AsyncIterable<unknown>): Readable {
  return Readable.from(pdfChunks(doc, steps), { objectMode: false });
}

async function* pdfChunks(doc: PdfDoc, steps?: AsyncIterator<unknown> | AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  const made: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => made.push(chunk));
  const ended = once(doc, 'end');
  const iterator = steps && Symbol.asyncIterator in steps ? steps[Symbol.asyncIterator]() : (steps as AsyncIterator<unknown> | undefined);
  let finished = false;
  try {
    if (iterator) {
      for (;;) {
        const step = await iterator.next();
        if (step.done) break;
        if (made.length > 0) yield Buffer.concat(made.splice(0));
      }
    }
    finished = true;
    doc.end();
    await ended;
    if (made.length > 0) yield Buffer.concat(made.splice(0));
  } finally {
    // Stopped early (client gone, or a step threw): let the steps release what they hold.
    if (!finished) await iterator?.return?.();
  }
}
