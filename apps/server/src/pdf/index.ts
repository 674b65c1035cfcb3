/** The shared PDF base (issue 12): statement export and receipts build on it. See document.ts. */
export * from './document.js';
export { streamPdf } from './stream.js';
