import { describe, expect, it } from 'vitest';
import { newUserCode, normaliseUserCode } from './device-codes.js';

describe('user codes', () => {
  it('are eight consonants shown as XXXX-XXXX', () => {
    for (let i = 0; i < 50; i++) expect(newUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  });

  it('are read however a person types them', () => {
    expect(normaliseUserCode('bcdf ghjk')).toBe('BCDF-GHJK');
    expect(normaliseUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    expect(normaliseUserCode('BCDF-GHJA')).toBeUndefined();
    expect(normaliseUserCode('<script>')).toBeUndefined();
  });
});
