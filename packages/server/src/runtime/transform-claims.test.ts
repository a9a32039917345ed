import { describe, expect, it } from 'vitest';
import { fromClaimList, toClaimList } from './transform-claims.js';

describe('claims as a claim list and back', () => {
  it('keeps the JSON types of the standard claims and several values of one type', () => {
    const claims = {
      email: 'ann@example.test',
      email_verified: true,
      updated_at: 1700000000,
      address: { locality: 'Utrecht' },
      groups: ['Staff', 'Admins'],
    };
    const list = toClaimList(claims);
    expect(list).toEqual([
      { type: 'email', value: 'ann@example.test' },
      { type: 'email_verified', value: 'true' },
      { type: 'updated_at', value: '1700000000' },
      { type: 'address', value: '{"locality":"Utrecht"}' },
      { type: 'groups', value: 'Staff' },
      { type: 'groups', value: 'Admins' },
    ]);
    expect(fromClaimList(list)).toEqual(claims);
  });
});
