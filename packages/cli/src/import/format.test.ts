import { describe, expect, it } from 'vitest';
import { exportHeader, joinList, parseHeader, rowToUser, splitList, userToRow } from './format.js';

describe('user CSV format', () => {
  it('reads a row with groups, claims and a migrated hash', () => {
    const columns = parseHeader(['userName', 'Email', 'groups', 'active', 'claim:locale', 'passwordHash', 'row']);
    expect(rowToUser(columns, ['ada', 'ada@example.com', 'Staff;Dev', 'false', 'en;nl', '$2b$x', '7'])).toEqual({
      userName: 'ada',
      email: 'ada@example.com',
      groups: ['Staff', 'Dev'],
      active: false,
      passwordHash: '$2b$x',
      claims: [
        { type: 'locale', value: 'en' },
        { type: 'locale', value: 'nl' },
      ],
    });
  });

  it('refuses unknown columns, a missing userName column and bad values', () => {
    expect(() => parseHeader(['email'])).toThrow('the header has no userName column');
    expect(() => parseHeader(['userName', 'shoeSize'])).toThrow('unknown column shoeSize');
    const columns = parseHeader(['userName', 'active']);
    expect(() => rowToUser(columns, ['ada', 'maybe'])).toThrow('active must be true or false, not maybe');
    expect(() => rowToUser(columns, ['ada'])).toThrow('the row has 1 cells, the header 2');
  });

  it('round-trips lists with separators in values', () => {
    const values = ['a;b', 'c\\d', 'e'];
    expect(splitList(joinList(values))).toEqual(values);
  });

  it('exports the columns import reads', () => {
    const header = exportHeader(['locale']);
    const row = userToRow(
      { userName: 'ada', email: null, groups: ['Staff'], active: true, claims: [{ type: 'locale', value: 'en' }] },
      ['locale'],
    );
    expect(rowToUser(parseHeader(header), row)).toEqual({
      userName: 'ada',
      groups: ['Staff'],
      active: true,
      claims: [{ type: 'locale', value: 'en' }],
    });
  });
});
