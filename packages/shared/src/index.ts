export * from './catalog/index.js';
export * from './errors.js';
export * from './schemas/index.js';
export * from './scim/index.js';
