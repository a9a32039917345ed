import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPathProblem, resolveDataPath } from './data-path.js';

describe('dataPathProblem', () => {
  it('accepts relative paths inside the data dir', () => {
    expect(dataPathProblem('mail/pickup')).toBeUndefined();
    expect(dataPathProblem('./a/../b')).toBeUndefined();
  });

  it('refuses absolute paths, escapes and empty paths', () => {
    expect(dataPathProblem('/etc/passwd')).toBe('must be a path relative to the data dir');
    expect(dataPathProblem('C:\\temp')).toBe('must be a path relative to the data dir');
    expect(dataPathProblem('../outside')).toBe('must stay inside the data dir');
    expect(dataPathProblem('a/../../outside')).toBe('must stay inside the data dir');
    expect(dataPathProblem(' ')).toBe('must not be empty');
  });
});

describe('resolveDataPath', () => {
  it('resolves under the data dir', () => {
    expect(resolveDataPath('/srv/idsvc', 'mail/out')).toBe(path.resolve('/srv/idsvc/mail/out'));
  });
});
