import { describe, expect, it } from 'vitest';
import { tokenHeaders } from './token-fast-path.js';

describe('tokenHeaders', () => {
  it('reads Origin, X-Request-Id, Authorization and Content-Type whatever the case of their names', () => {
    const raw = [
      'Host',
      'idsvc.test',
      'AUTHORIZATION',
      'Basic YTpi',
      'content-type',
      'application/x-www-form-urlencoded',
      'X-Request-ID',
      'req-1',
      'Origin',
      'https://app.test',
    ];
    expect(tokenHeaders(raw)).toEqual({
      origin: 'https://app.test',
      requestId: 'req-1',
      authorization: 'Basic YTpi',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('keeps the first Authorization and Content-Type, as node:http does', () => {
    const raw = [
      'Authorization',
      'Basic first',
      'Authorization',
      'Basic second',
      'Content-Type',
      'a',
      'Content-Type',
      'b',
    ];
    expect(tokenHeaders(raw)).toEqual({ authorization: 'Basic first', contentType: 'a' });
  });

  it('uses no request id when X-Request-Id is given twice', () => {
    expect(tokenHeaders(['X-Request-Id', 'one', 'X-Request-Id', 'two']).requestId).toBeUndefined();
    expect(tokenHeaders(['X-Request-Id', 'one', 'X-Request-Id', 'two', 'X-Request-Id', 'three']).requestId).toBe(
      undefined,
    );
  });

  it('finds nothing in headers of other names, even of the same length', () => {
    expect(tokenHeaders(['Accept', 'x', 'X-Forwarded-F', 'y', 'Content-Typo', 'z'])).toEqual({});
  });
});
