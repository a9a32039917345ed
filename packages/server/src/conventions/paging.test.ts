import { describe, expect, it } from 'vitest';
import { normalisePaging, pageLinks } from './paging.js';

describe('normalisePaging', () => {
  it.each([
    [undefined, undefined, 1, 1000],
    ['2', '10', 2, 10],
    ['0', '10', 1, 1000],
    ['x', '10', 1, 1000],
    ['3', '0', 1, 1000],
    ['3', 'abc', 1, 1000],
    ['3', '5000', 3, 1000],
    ['-1', '10', 1, 1000],
    [undefined, '25', 1, 25],
    ['4', undefined, 4, 1000],
  ])('pageIndex %s pageSize %s → %i/%i', (index, size, wantIndex, wantSize) => {
    expect(normalisePaging(index, size)).toEqual({ pageIndex: wantIndex, pageSize: wantSize });
  });
});

describe('pageLinks', () => {
  const url = new URL('http://h/api/rest/v2/groups?sortBy=name&pageIndex=2&pageSize=10');
  it('gives next and prev in the middle of the result', () => {
    expect(pageLinks(url, { pageIndex: 2, pageSize: 10 }, 35)).toBe(
      '</api/rest/v2/groups?sortBy=name&pageIndex=3&pageSize=10>; rel="next", </api/rest/v2/groups?sortBy=name&pageIndex=1&pageSize=10>; rel="prev"',
    );
  });
  it('gives nothing when everything fits on the first page', () => {
    expect(pageLinks(url, { pageIndex: 1, pageSize: 10 }, 10)).toBeUndefined();
  });
});
