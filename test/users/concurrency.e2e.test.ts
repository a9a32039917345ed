import { describe, expect, it } from 'vitest';
import { type ApiResponse, totalCount, unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile } from '../helpers/fixtures.js';
import { anyOf, batchPath, createUser, filterPath, readUser, type User, userNamesWhere, usersPath } from './support.js';

const ctx = serverPerFile();

/** The statuses of the answers, counted: `{ 200: 1, 409: 49 }`. */
function tally(responses: ApiResponse<unknown>[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

describe('concurrent writes of users', () => {
  it('50 concurrent creates of one userName: exactly one 200 and 49 × 409 conflict, one user stored', async () => {
    const userName = unique('racer');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ctx.admin.post<User>(usersPath, { body: { userName, displayName: `attempt ${i}` } }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 49 });
    for (const response of responses.filter((r) => r.status === 409)) expectError(response, 409, 'conflict');
    const winner = responses.find((r) => r.status === 200)!.body;
    const stored = await ctx.admin.get<User[]>(filterPath, { query: { filter: `userName eq "${userName}"` } });
    expect(stored.body).toEqual([winner]);
    expect(totalCount(stored)).toBe(1);
  });

  it('50 concurrent creates of one e-mail under different userNames: one 200 and 49 × 409', async () => {
    const email = `${unique('race')}@example.com`;
    const prefix = unique('mail');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ctx.admin.post(usersPath, { body: { userName: `${prefix}${i}`, email } })),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 49 });
    expect(await userNamesWhere(ctx.admin, `email eq "${email}"`)).toHaveLength(1);
  });

  it('30 concurrent creates of different userNames all succeed', async () => {
    const names = Array.from({ length: 30 }, () => unique('many'));
    const responses = await Promise.all(names.map((userName) => ctx.admin.post(usersPath, { body: { userName } })));
    expect(tally(responses)).toEqual({ 200: 30 });
    expect((await userNamesWhere(ctx.admin, anyOf(names))).sort()).toEqual([...names].sort());
  });

  it('two concurrent batches sharing one userName: one is stored whole, the other not at all', async () => {
    const shared = unique('shared');
    const left = [unique('left'), shared, unique('left')];
    const right = [unique('right'), unique('right'), shared];
    const responses = await Promise.all(
      [left, right].map((names) => ctx.admin.post(batchPath, { body: names.map((userName) => ({ userName })) })),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 1 });
    const won = responses[0].status === 200 ? left : right;
    expect((await userNamesWhere(ctx.admin, anyOf([...left, ...right]))).sort()).toEqual([...won].sort());
  });

  it('concurrent renames to one userName: one 200, the rest 409, and only the winner holds the name', async () => {
    const target = unique('target');
    const users = await Promise.all(
      Array.from({ length: 10 }, () => createUser(ctx.admin, { userName: unique('old') })),
    );
    const responses = await Promise.all(
      users.map((user) => ctx.admin.put<User>(usersPath, { body: { id: user.id, userName: target } })),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 9 });
    const winner = responses.find((r) => r.status === 200)!.body;
    expect(await userNamesWhere(ctx.admin, `userName eq "${target}"`)).toEqual([target]);
    for (const user of users.filter((u) => u.id !== winner.id)) {
      expect((await readUser(ctx.admin, user.id)).userName).toBe(user.userName);
    }
  });
});
