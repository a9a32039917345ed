export * from './ast.js';
export { InvalidFilterError } from './errors.js';
export { MAX_FILTER_DEPTH, parseFilter } from './parse.js';
