import { Readable } from 'node:stream';
import { DRIVER_DATA_KINDS, type DriverDataKind } from '@portal/domain';
import type { Kysely } from 'kysely';
import { ZipFile } from 'yazl';
import type { Database } from '../../db/schema.js';
import { DATA_KINDS } from './kinds.js';
import type { DataRecord } from './pages.js';

/** The summary's name inside the ZIP: first, so a driver who opens the ZIP sees it on top. */
export const SUMMARY_FILE = 'resumo.pdf';

/** A JSON array written as its records arrive: '[', one record a line, ']'. */
async function* jsonArray(chunks: AsyncIterable<DataRecord[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const chunk of chunks) {
    let text = '';
    for (const record of chunk) {
      text += `${first ? '\n' : ',\n'}${JSON.stringify(record)}`;
      first = false;
    }
    yield text;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * The ZIP as it is written: the summary, then each kind's JSON file, each read from the database
 * only when the ZIP reaches it and only as fast as the client takes the bytes (yazl pipes one
 * entry at a time, with backpressure). A failure halfway ends the stream with an error, so the
 * client gets a broken download, never a ZIP that looks whole and is not.
 */
export function driverDataZip(db: Kysely<Database>, driverId: number, since: string, summary: Buffer, now: Date): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  let current: Readable | null = null;
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  // The client left: stop reading the database for it.
  output.on('close', () => current?.destroy());

  const options = { mtime: now, compress: true };
  zip.addBuffer(summary, SUMMARY_FILE, options);
  for (const kind of Object.keys(DRIVER_DATA_KINDS) as DriverDataKind[]) {
    zip.addReadStreamLazy(DRIVER_DATA_KINDS[kind].file, options, (give) => {
      const stream = Readable.from(jsonArray(DATA_KINDS[kind].records(db, driverId, since)));
      stream.on('error', fail);
      current = stream;
      give(null, stream);
    });
  }
  zip.end();
  return output;
}
