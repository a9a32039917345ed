export * from './audit.js';
export * from './claims.js';
export * from './connections.js';
export * from './directory.js';
export * from './documents.js';
export * from './oauth.js';
export * from './one-time-codes.js';
export * from './used-saml-assertions.js';
