export * from './constants.js';
export * from './dates.js';
export * from './documents.js';
export * from './messages.js';
export * from './money.js';
export * from './phone.js';
export * from './registration.js';
