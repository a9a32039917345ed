import { beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import {
  anyOf,
  batchPath,
  createGroup,
  createUser,
  expectedUser,
  readUser,
  type User,
  type UserBody,
  userNamesWhere,
} from './support.js';

const ctx = serverPerFile();
const staff = unique('staff');

beforeAll(async () => {
  await createGroup(ctx.admin, staff);
});

/** Details of an error answer. */
function detailsOf(body: unknown): Record<string, unknown>[] {
  return (body as { details?: Record<string, unknown>[] }).details ?? [];
}

describe('Users_PostMassUser', () => {
  it('creates every user, answers 200 with them in order, and each reads back the same', async () => {
    const bodies: UserBody[] = [
      { userName: unique('b1'), email: `${unique('e')}@example.com`, groups: [staff] },
      { userName: unique('b2'), displayName: 'Two', claims: [{ type: 'locale', value: 'nl' }] },
      { userName: unique('b3'), active: false },
    ];
    const response = await ctx.admin.post<User[]>(batchPath, { body: bodies });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(bodies.map(expectedUser));
    for (const user of response.body) expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('is atomic: an unknown group on the third item answers 400 naming it and creates none', async () => {
    const names = [unique('keep1'), unique('keep2'), unique('bad3')];
    const body = [
      { userName: names[0] },
      { userName: names[1], groups: [staff] },
      { userName: names[2], groups: [unique('nosuchgroup')] },
    ];
    const response = await ctx.admin.post(batchPath, { body });
    expectError(response, 400, 'invalid_request');
    expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index: 2, field: 'groups' })]);
    expect(await userNamesWhere(ctx.admin, anyOf(names))).toEqual([]);
  });

  it('answers 400 naming the item for an unknown organization or claim type, and creates none', async () => {
    const names = [unique('ok'), unique('org'), unique('claim')];
    const cases = [
      {
        index: 1,
        field: 'organization',
        body: [{ userName: names[0] }, { userName: names[1], organization: 'Nowhere' }],
      },
      {
        index: 1,
        field: 'claims',
        body: [{ userName: names[0] }, { userName: names[2], claims: [{ type: 'urn:none', value: 'x' }] }],
      },
    ];
    for (const { index, field, body } of cases) {
      const response = await ctx.admin.post(batchPath, { body });
      expectError(response, 400, 'invalid_request');
      expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index, field })]);
    }
    expect(await userNamesWhere(ctx.admin, anyOf(names))).toEqual([]);
  });

  it('answers 409 with details naming the duplicated items of the batch, and creates none', async () => {
    const a = unique('dupa');
    const email = `${unique('d')}@example.com`;
    const body = [
      { userName: a, email },
      { userName: unique('dupb') },
      { userName: a.toUpperCase() },
      { userName: unique('dupc'), email: email.toUpperCase() },
    ];
    const response = await ctx.admin.post(batchPath, { body });
    expectError(response, 409, 'conflict');
    expect(detailsOf(response.body)).toEqual([
      expect.objectContaining({ index: 2, field: 'userName', value: a.toUpperCase() }),
      expect.objectContaining({ index: 3, field: 'email', value: email.toUpperCase() }),
    ]);
    expect(await userNamesWhere(ctx.admin, anyOf(body.map((u) => u.userName)))).toEqual([]);
  });

  it('answers 409 naming the item that clashes with an existing user, and creates none', async () => {
    const existing = await createUser(ctx.admin, { userName: unique('exists') });
    const fresh = unique('fresh');
    const response = await ctx.admin.post(batchPath, { body: [{ userName: fresh }, { userName: existing.userName }] });
    expectError(response, 409, 'conflict');
    expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index: 1, userName: existing.userName })]);
    expect(await userNamesWhere(ctx.admin, anyOf([fresh, existing.userName]))).toEqual([existing.userName]);
  });

  it('answers 400 for an empty array, a body that is not an array and an invalid item', async () => {
    const name = unique('invalid');
    for (const body of [[], { userName: name }, [{ userName: name }, { userName: '' }]]) {
      expectError(await ctx.admin.post(batchPath, { body }), 400, 'invalid_request');
    }
    expect(await userNamesWhere(ctx.admin, anyOf([name]))).toEqual([]);
  });
});

describe('Users_PutMassUser', () => {
  async function twoUsers(): Promise<[User, User]> {
    return [
      await createUser(ctx.admin, { userName: unique('u1'), displayName: 'One' }),
      await createUser(ctx.admin, { userName: unique('u2'), displayName: 'Two', groups: [staff] }),
    ];
  }

  it('updates every user, answers 200 with them in order, and each reads back the same', async () => {
    const [one, two] = await twoUsers();
    const body = [
      { id: one.id, userName: one.userName, displayName: 'One changed', groups: [staff] },
      { id: two.id, userName: `${two.userName}x`, active: false, groups: [] },
    ];
    const response = await ctx.admin.put<User[]>(batchPath, { body });
    expect(response.status).toBe(200);
    const expected = [
      { ...one, ...body[0], updatedAt: expect.any(String) },
      { ...two, ...body[1], updatedAt: expect.any(String) },
    ];
    expect(response.body).toEqual(expected);
    expect([await readUser(ctx.admin, one.id), await readUser(ctx.admin, two.id)]).toEqual(expected);
  });

  it('answers 404 naming an unknown id and changes none of the others', async () => {
    const [one, two] = await twoUsers();
    const body = [
      { id: one.id, userName: one.userName, displayName: 'changed' },
      { id: unknownGuid, userName: unique('ghost') },
      { id: two.id, userName: two.userName, displayName: 'changed' },
    ];
    const response = await ctx.admin.put(batchPath, { body });
    expectError(response, 404, 'not_found');
    expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index: 1, id: unknownGuid })]);
    expect([await readUser(ctx.admin, one.id), await readUser(ctx.admin, two.id)]).toEqual([one, two]);
  });

  it('is atomic: an unknown group on the last item answers 400 and changes none', async () => {
    const [one, two] = await twoUsers();
    const body = [
      { id: one.id, userName: one.userName, displayName: 'changed' },
      { id: two.id, userName: two.userName, groups: [unique('nosuchgroup')] },
    ];
    const response = await ctx.admin.put(batchPath, { body });
    expectError(response, 400, 'invalid_request');
    expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index: 1, field: 'groups' })]);
    expect([await readUser(ctx.admin, one.id), await readUser(ctx.admin, two.id)]).toEqual([one, two]);
  });

  it('answers 409 for the same user twice or two users given one userName, and changes none', async () => {
    const [one, two] = await twoUsers();
    const twice = [
      { id: one.id, userName: one.userName, displayName: 'a' },
      { id: one.id, userName: `${one.userName}x`, displayName: 'b' },
    ];
    const sameName = [
      { id: one.id, userName: one.userName, displayName: 'changed' },
      { id: two.id, userName: one.userName.toUpperCase() },
    ];
    for (const [field, body] of [
      ['id', twice],
      ['userName', sameName],
    ] as const) {
      const response = await ctx.admin.put(batchPath, { body });
      expectError(response, 409, 'conflict');
      expect(detailsOf(response.body)).toEqual([expect.objectContaining({ index: 1, field })]);
    }
    expect([await readUser(ctx.admin, one.id), await readUser(ctx.admin, two.id)]).toEqual([one, two]);
  });

  it('answers 409 when an item takes the userName of a user outside the batch, and changes none', async () => {
    const [one, two] = await twoUsers();
    const outsider = await createUser(ctx.admin, { userName: unique('outsider') });
    const body = [
      { id: one.id, userName: one.userName, displayName: 'changed' },
      { id: two.id, userName: outsider.userName },
    ];
    expectError(await ctx.admin.put(batchPath, { body }), 409, 'conflict');
    expect([await readUser(ctx.admin, one.id), await readUser(ctx.admin, two.id)]).toEqual([one, two]);
  });

  it('answers 400 for an empty array or an item without id', async () => {
    const [one] = await twoUsers();
    expectError(await ctx.admin.put(batchPath, { body: [] }), 400, 'invalid_request');
    const body = [{ id: one.id, userName: one.userName, displayName: 'x' }, { userName: unique('noid') }];
    expectError(await ctx.admin.put(batchPath, { body }), 400, 'invalid_request');
    expect(await readUser(ctx.admin, one.id)).toEqual(one);
  });
});
