import { describe, expect, it } from 'vitest';
import { SeenIndex } from './seen.js';

describe('SeenIndex', () => {
  it('returns the first row of a key seen before and 0 for a new one, across growth', () => {
    const index = new SeenIndex(4);
    for (let i = 1; i <= 10_000; i++) expect(index.add(`user${i}`, i + 1)).toBe(0);
    expect(index.count).toBe(10_000);
    expect(index.add('user1', 99_999)).toBe(2);
    expect(index.add('user10000', 99_999)).toBe(10_001);
    expect(index.add('user10001', 99_999)).toBe(0);
  });
});
