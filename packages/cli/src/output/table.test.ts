import { describe, expect, it } from 'vitest';
import type { OutputOptions } from './options.js';
import { fitColumns, renderObject, renderRows } from './table.js';

const out = (width: number): OutputOptions => ({ format: 'table', color: false, colorErr: false, quiet: false, width });

describe('tables', () => {
  it('leaves out columns from the right that do not fit the width, and cuts long cells', () => {
    const fitted = fitColumns(['name', 'description', 'id'], [['Staff', 'x'.repeat(100), 'y'.repeat(36)]], 50);
    expect(fitted.columns).toEqual(['name', 'description', 'id']);
    expect(fitted.widths.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(50);
    expect(fitColumns(['a', 'b', 'c', 'd'], [['1'.repeat(30), '2'.repeat(30), '3', '4']], 20).columns).toEqual([
      'a',
      'b',
    ]);
  });

  it('prints lists as columns under a header and one object as field lines', () => {
    expect(
      renderRows(
        [
          { name: 'Staff', size: 3 },
          { name: 'Dev', size: 10 },
        ],
        out(80),
      ),
    ).toBe('name   size\nStaff  3\nDev    10\n');
    expect(
      renderObject({ userName: 'ada', groups: ['A', 'B'], claims: [{ type: 'locale', value: 'en' }] }, out(80)),
    ).toBe('userName  ada\ngroups    A, B\nclaims    locale: en\n');
  });
});
