import { beforeAll, describe, expect, it } from 'vitest';
import { passwordGrant, testPassword, unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import { createGroup, createUser, readUser, type User, usersPath } from './support.js';

const ctx = serverPerFile();
const staff = unique('staff');
const ops = unique('ops');

beforeAll(async () => {
  await createGroup(ctx.admin, staff);
  await createGroup(ctx.admin, ops);
});

function someone(): Promise<User> {
  return createUser(ctx.admin, {
    userName: unique('patch'),
    email: `${unique('p')}@example.com`,
    displayName: 'Before',
    phoneNumber: '+31201234567',
    groups: [staff],
    claims: [
      { type: 'locale', value: 'nl' },
      { type: 'nickname', value: 'Bee' },
    ],
  });
}

function patch(id: string, body: unknown) {
  return ctx.admin.patch<User>(`${usersPath}/${id}`, { body });
}

describe('Users_PatchUppdating', () => {
  it('replaces fields, answers 200 with the user, and reads back the same', async () => {
    const user = await someone();
    const response = await patch(user.id, [
      { op: 'replace', path: 'displayName', value: 'After' },
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'forceResetPasswordAfterFirstTimeLogin', value: true },
    ]);
    expect(response.status).toBe(200);
    const expected = {
      ...user,
      displayName: 'After',
      active: false,
      forceResetPasswordAfterFirstTimeLogin: true,
      updatedAt: expect.any(String),
    };
    expect(response.body).toEqual(expected);
    expect(await readUser(ctx.admin, user.id)).toEqual(expected);
  });

  it('reads the keys Op, Path and Value and the op and path names case-insensitively', async () => {
    const user = await someone();
    const response = await patch(user.id, [{ Op: 'Replace', Path: 'DISPLAYNAME', Value: 'Shouted' }]);
    expect(response.status).toBe(200);
    expect((await readUser(ctx.admin, user.id)).displayName).toBe('Shouted');
  });

  it('adds to and removes from groups and claims', async () => {
    const user = await someone();
    const response = await patch(user.id, [
      { op: 'add', path: 'groups', value: ops },
      { op: 'remove', path: 'groups', value: staff },
      { op: 'add', path: 'claims', value: [{ type: 'given_name', value: 'Bea' }] },
      { op: 'remove', path: 'claims', value: { type: 'nickname', value: 'Bee' } },
    ]);
    expect(response.status).toBe(200);
    expect(await readUser(ctx.admin, user.id)).toMatchObject({
      groups: [ops],
      claims: [
        { type: 'locale', value: 'nl' },
        { type: 'given_name', value: 'Bea' },
      ],
    });
  });

  it('removes a whole list or a nullable field when remove has no value', async () => {
    const user = await someone();
    const response = await patch(user.id, [
      { op: 'remove', path: 'claims' },
      { op: 'remove', path: 'phoneNumber' },
    ]);
    expect(response.status).toBe(200);
    expect(await readUser(ctx.admin, user.id)).toEqual({
      ...user,
      claims: [],
      phoneNumber: null,
      updatedAt: expect.any(String),
    });
  });

  it('sets each field of an object value given without a path', async () => {
    const user = await someone();
    const response = await patch(user.id, [{ op: 'replace', value: { displayName: 'Whole', email: null } }]);
    expect(response.status).toBe(200);
    expect(await readUser(ctx.admin, user.id)).toMatchObject({ displayName: 'Whole', email: null, groups: [staff] });
  });

  it('sets a password that the token endpoint then accepts', async () => {
    const user = await someone();
    expect((await patch(user.id, [{ op: 'replace', path: 'password', value: testPassword }])).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
    expect(Object.keys((await readUser(ctx.admin, user.id)) as object)).not.toContain('password');
  });

  it('answers 404 not_found for an unknown user', async () => {
    expectError(await patch(unknownGuid, [{ op: 'replace', path: 'displayName', value: 'x' }]), 404, 'not_found');
  });

  it('answers 409 for the userName or e-mail of another user and changes nothing', async () => {
    const other = await someone();
    const user = await someone();
    for (const [path, value] of [
      ['userName', other.userName.toUpperCase()],
      ['email', other.email],
    ]) {
      const response = await patch(user.id, [
        { op: 'replace', path: 'displayName', value: 'changed' },
        { op: 'replace', path, value },
      ]);
      expectError(response, 409, 'conflict');
    }
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('answers 400 and changes nothing for an unknown op, an unknown or read-only path, or a wrong value type', async () => {
    const user = await someone();
    const first = { op: 'replace', path: 'displayName', value: 'changed' };
    const bodies = [
      [first, { op: 'move', path: 'displayName', value: 'x' }],
      [first, { op: 'replace', path: 'shoeSize', value: 42 }],
      [first, { op: 'replace', path: 'locked', value: true }],
      [first, { op: 'replace', path: 'id', value: unknownGuid }],
      [first, { op: 'replace', path: 'active', value: 'yes' }],
      [first, { op: 'replace', path: 'email', value: 'not-an-address' }],
      [first, { op: 'add', path: 'groups', value: 7 }],
      [first, { op: 'replace', path: 'userName', value: '' }],
      [first, { op: 'replace' }],
    ];
    for (const body of bodies) {
      const response = await patch(user.id, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expectError(response, 400, 'invalid_request');
    }
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('answers 400 and changes nothing for an unknown group, a claim without definition, or a second locale', async () => {
    const user = await someone();
    const bodies = [
      [{ op: 'add', path: 'groups', value: unique('nosuchgroup') }],
      [{ op: 'add', path: 'claims', value: { type: 'urn:none', value: 'x' } }],
      [{ op: 'add', path: 'claims', value: { type: 'locale', value: 'en' } }],
    ];
    for (const body of bodies) expectError(await patch(user.id, body), 400, 'invalid_request');
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('answers 400 for a body that is not a non-empty array of operations, and for an id that is not a GUID', async () => {
    const user = await someone();
    for (const body of [[], { op: 'replace', path: 'displayName', value: 'x' }, ['replace']]) {
      expectError(await patch(user.id, body), 400, 'invalid_request');
    }
    expectError(
      await ctx.admin.patch(`${usersPath}/${user.id}`, { rawBody: '[{"op": "replace"' }),
      400,
      'invalid_request',
    );
    expectError(
      await patch('not-a-guid', [{ op: 'replace', path: 'displayName', value: 'x' }]),
      400,
      'invalid_request',
    );
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });
});
