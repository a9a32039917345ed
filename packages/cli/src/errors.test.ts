import { describe, expect, it } from 'vitest';
import { ApiCallError, detailText, exitCodeOfStatus } from './errors.js';

describe('exit codes', () => {
  it('maps HTTP statuses as DESIGN 1.7 says', () => {
    expect([200, 400, 401, 403, 404, 409, 413, 422, 500, 501].map(exitCodeOfStatus)).toEqual([
      0, 6, 5, 5, 3, 4, 6, 6, 1, 1,
    ]);
  });

  it('turns the details of an API error into one line each', () => {
    const error = new ApiCallError(409, 'conflict', 'duplicates', [
      { index: 3, userName: 'ada', message: 'clashes with existing user ada' },
      { field: 'email', message: 'must be an e-mail address' },
      'plain',
    ]);
    expect(error.exitCode).toBe(4);
    expect(error.details).toEqual([
      '[3] ada: clashes with existing user ada',
      'email: must be an e-mail address',
      'plain',
    ]);
    expect(detailText({ other: 1 })).toBe('{"other":1}');
  });
});
