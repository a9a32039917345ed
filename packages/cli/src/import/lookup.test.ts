import { describe, expect, it } from 'vitest';
import { eqFilters } from './lookup.js';

describe('existence filters', () => {
  it('joins eq clauses with or, quoting values as SCIM strings, within the filter length limit', () => {
    expect(eqFilters('userName', ['a', 'b "c"'])).toEqual(['userName eq "a" or userName eq "b \\"c\\""']);
    const many = eqFilters(
      'userName',
      Array.from({ length: 1000 }, (_, i) => `user${String(i).padStart(6, '0')}`),
    );
    expect(many.length).toBeGreaterThan(1);
    expect(Math.max(...many.map((f) => f.length))).toBeLessThanOrEqual(7500);
    expect(many.join(' or ').split(' or ')).toHaveLength(1000);
  });
});
