import { vi, type Mock } from 'vitest';

/** A file answer of a `file` call (the statement export, a receipt's PDF). */
export interface FileReply {
  body: string;
  contentType: string;
  /** Sent as Content-Disposition: attachment; filename="..." (left out: no header). */
  fileName?: string;
}

type FetchMock = Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;

/**
 * On top of mockApi's fetch: calls to `path` (query string ignored) answer `reply` as a file;
 * answers the calls made (URL with its query string, headers). A reply that never settles keeps the call pending.
 */
export function mockFile(fetchMock: FetchMock, path: string, reply: FileReply | (() => Promise<Response>)) {
  const json = fetchMock.getMockImplementation();
  const asked: { url: URL; headers: Headers }[] = [];
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== path) return json ? json(input, init) : new Response(null, { status: 404 });
    asked.push({ url, headers: new Headers(init?.headers) });
    if (typeof reply === 'function') return reply();
    const headers: Record<string, string> = { 'Content-Type': reply.contentType };
    if (reply.fileName) headers['Content-Disposition'] = `attachment; filename="${reply.fileName}"`;
    return new Response(reply.body, { status: 200, headers });
  });
  return asked;
}

/** The files the app saved (lib/download saveBlob: an object URL clicked as a download link). */
export function captureDownloads() {
  const blobs = new Map<string, Blob>();
  const saved: { name: string; blob: Blob | undefined }[] = [];
  let next = 0;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: (blob: Blob) => {
      next += 1;
      const url = `blob:http://localhost/${next}`;
      blobs.set(url, blob);
      return url;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href) });
  });
  return saved;
}
