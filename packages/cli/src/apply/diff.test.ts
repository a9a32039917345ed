import { describe, expect, it } from 'vitest';
import { diff, matches, merge } from './diff.js';

describe('apply diff', () => {
  it('compares only the fields a document gives, lists of values in any order', () => {
    expect(matches({ name: 'a', tags: ['x', 'y'] }, { name: 'a', tags: ['y', 'x'], id: '1' })).toBe(true);
    expect(matches({ description: null }, {})).toBe(true);
    expect(matches({ configuration: { a: 1 } }, { configuration: { a: 1, b: 2 } })).toBe(true);
    expect(matches({ list: [{ a: 1 }, { a: 2 }] }, { list: [{ a: 2 }, { a: 1 }] })).toBe(false);
  });

  it('names changed fields by dotted path and skips write-only ones', () => {
    const desired = { name: 'c', configuration: { clientSecret: 's', redirectUris: ['a', 'b'] } };
    const current = { name: 'c', configuration: { redirectUris: ['a'] } };
    expect(diff(desired, current, ['configuration.clientSecret'])).toEqual([
      { path: 'configuration.redirectUris', from: ['a'], to: ['a', 'b'] },
    ]);
  });

  it('merges a document over the current object', () => {
    expect(merge({ id: '1', name: 'g', configuration: { a: 1, b: 2 } }, { configuration: { b: 3 } })).toEqual({
      id: '1',
      name: 'g',
      configuration: { a: 1, b: 3 },
    });
  });
});
