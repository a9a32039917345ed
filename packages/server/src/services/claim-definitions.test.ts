import type { ClaimDefinitionInput } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords, claimDefinitions, groups } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { baseVariableName } from './claim-definition-values.js';
import { claimDefinitionService } from './claim-definitions.js';

const by = { actor: 'tester', requestId: 'req-cd' };
const missingId = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
let service: ReturnType<typeof claimDefinitionService>;

const auditOf = (entityKey: string) =>
  ctx.db
    .select({ operation: auditRecords.operation, actor: auditRecords.actor, changes: auditRecords.changes })
    .from(auditRecords)
    .where(and(eq(auditRecords.entityType, 'claimDefinition'), eq(auditRecords.entityKey, entityKey)))
    .orderBy(auditRecords.id);
const create = (input: ClaimDefinitionInput) => service.create(input, by);

beforeAll(async () => {
  ctx = await createTestContext();
  service = claimDefinitionService(ctx.db);
  await ctx.db.insert(groups).values([{ name: 'Staff' }, { name: 'Sales' }]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('baseVariableName', () => {
  it('takes the last path or URN segment without non-word characters', () => {
    expect(baseVariableName('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/e-mail.address')).toBe(
      'emailaddress',
    );
    expect(baseVariableName('urn:acme:employee_id')).toBe('employee_id');
    expect(baseVariableName('urn:oid:2.5.4.3')).toBe('_2543');
    expect(baseVariableName('urn:acme:---')).toBe('acme');
    expect(baseVariableName('%%%')).toBe('claim');
  });
});

describe('create', () => {
  it('fills defaults, derives the variable name and writes an audit record', async () => {
    const created = await create({ claimType: 'http://schemas.example.org/claims/department' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      claimType: 'http://schemas.example.org/claims/department',
      kind: 'FreeClaimDefinition',
      friendlyName: null,
      variableName: 'department',
      description: null,
      avoidIssue: false,
      avoidUpsize: false,
      countSpecification: 'Multiple',
      claimValueSpace: null,
      showAsColumnOnUserlist: false,
      sensitive: false,
      userEditable: false,
      restrictedSubOrganizationView: false,
    });
    const records = await auditOf('http://schemas.example.org/claims/department');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operation: 'create', actor: 'tester', changes: { variableName: 'department' } });
  });

  it('numbers a derived variable name that is taken (email is seeded)', async () => {
    expect((await create({ claimType: 'urn:one:email' })).variableName).toBe('email2');
    expect((await create({ claimType: 'urn:two:EMAIL' })).variableName).toBe('EMAIL3');
  });

  it('answers 409 for a claimType that exists in another case', async () => {
    await expect(create({ claimType: 'HTTP://SCHEMAS.EXAMPLE.ORG/CLAIMS/DEPARTMENT' })).rejects.toMatchObject({
      code: 'conflict',
      status: 409,
      message: 'a claim definition of type http://schemas.example.org/claims/department exists',
    });
  });

  it('answers 409 for a variable name another definition has, in any case', async () => {
    await expect(create({ claimType: 'urn:dup:var', variableName: 'GivenName' })).rejects.toMatchObject({
      status: 409,
      message: 'the variable name GivenName is used by the claim definition given_name',
    });
    expect(await auditOf('urn:dup:var')).toEqual([]);
  });

  it('answers 400 for a blank claimType', async () => {
    await expect(create({ claimType: '   ' })).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('keeps allowedValues only for the Optional kind', async () => {
    const optional = await create({
      claimType: 'urn:opt:colour',
      kind: 'OptionalClaimDefinition',
      allowedValues: ['red', 'blue', 'red'],
      groupNames: ['Staff'],
    });
    expect(optional.allowedValues).toEqual(['red', 'blue']);
    expect(optional.groupNames).toBeUndefined();
    const free = await create({ claimType: 'urn:free:colour', allowedValues: ['red'] });
    expect(free.allowedValues).toBeUndefined();
    const [row] = await ctx.db.select().from(claimDefinitions).where(eq(claimDefinitions.id, free.id));
    expect(row.allowedValues).toEqual([]);
  });

  it('keeps groupNames of the Group kind as the groups spell them, and refuses unknown groups', async () => {
    const group = await create({ claimType: 'urn:grp:teams', kind: 'GroupClaimDefinition', groupNames: ['staff'] });
    expect(group.groupNames).toEqual(['Staff']);
    await expect(
      create({ claimType: 'urn:grp:other', kind: 'GroupClaimDefinition', groupNames: ['Sales', 'Nobody', 'Ghosts'] }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'groupNames: no group named Nobody, Ghosts',
      details: [
        { field: 'groupNames', value: 'Nobody', message: 'no such group' },
        { field: 'groupNames', value: 'Ghosts', message: 'no such group' },
      ],
    });
  });

  it('keeps a given id and answers 409 when it is taken', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    expect((await create({ claimType: 'urn:id:given', id })).id).toBe(id);
    await expect(create({ claimType: 'urn:id:again', id })).rejects.toMatchObject({ status: 409 });
  });
});

describe('get and getById', () => {
  it('finds a definition by claimType in any case and by id', async () => {
    const found = await service.get('URN:OPT:COLOUR');
    expect(found.claimType).toBe('urn:opt:colour');
    expect(await service.getById(found.id)).toEqual(found);
  });

  it('answers 404 for a missing claimType, a missing id and a segment that is not a GUID', async () => {
    await expect(service.get('urn:none')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(service.getById(missingId)).rejects.toMatchObject({ status: 404 });
    await expect(service.getById('not-a-guid')).rejects.toMatchObject({ status: 404 });
  });
});

describe('update (PUT)', () => {
  it('replaces every field, absent ones by their defaults, and keeps the variable name when absent', async () => {
    await create({ claimType: 'urn:put:a', friendlyName: 'A', sensitive: true, variableName: 'putA' });
    const updated = await service.update(
      { claimType: 'URN:PUT:A', description: 'now', countSpecification: 'Single' },
      by,
    );
    expect(updated).toMatchObject({
      claimType: 'urn:put:a',
      variableName: 'putA',
      friendlyName: null,
      sensitive: false,
      description: 'now',
      countSpecification: 'Single',
    });
    const records = await auditOf('urn:put:a');
    expect(records.map((r) => r.operation)).toEqual(['create', 'update']);
    expect(records[1].changes).toEqual({
      friendlyName: null,
      description: 'now',
      sensitive: false,
      countSpecification: 'Single',
    });
  });

  it('answers 404 for a claimType that does not exist', async () => {
    await expect(service.update({ claimType: 'urn:put:none' }, by)).rejects.toMatchObject({ status: 404 });
  });

  it("answers 409 for another definition's variable name and changes nothing", async () => {
    await expect(service.update({ claimType: 'urn:put:a', variableName: 'email' }, by)).rejects.toMatchObject({
      status: 409,
      message: 'the variable name email is used by the claim definition email',
    });
    expect((await service.get('urn:put:a')).variableName).toBe('putA');
  });

  it('answers 400 for an id that is not the definition of the claimType', async () => {
    await expect(service.update({ claimType: 'urn:put:a', id: missingId }, by)).rejects.toMatchObject({ status: 400 });
  });
});

describe('patch', () => {
  it('changes the named fields only and appends with add', async () => {
    await create({
      claimType: 'urn:patch:p',
      kind: 'OptionalClaimDefinition',
      allowedValues: ['a'],
      friendlyName: 'P',
    });
    const patched = await service.patch(
      'urn:patch:p',
      [
        { op: 'replace', path: 'Sensitive', value: true },
        { op: 'add', path: 'allowedValues', value: ['b', 'c'] },
        { Op: 'Remove', Path: 'friendlyName' },
      ],
      by,
    );
    expect(patched).toMatchObject({
      kind: 'OptionalClaimDefinition',
      sensitive: true,
      friendlyName: null,
      allowedValues: ['a', 'b', 'c'],
      variableName: 'p',
    });
    const records = await auditOf('urn:patch:p');
    expect(records[1].changes).toEqual({ friendlyName: null, sensitive: true, allowedValues: ['a', 'b', 'c'] });
  });

  it('sets each field of an object value when the path is empty', async () => {
    const patched = await service.patch(
      'urn:patch:p',
      [{ op: 'replace', value: { avoidIssue: true, description: 'd' } }],
      by,
    );
    expect(patched).toMatchObject({ avoidIssue: true, description: 'd', sensitive: true });
  });

  it('answers 400 for a wrong value type, an unknown path or the claimType, and changes nothing', async () => {
    const before = await service.get('urn:patch:p');
    await expect(
      service.patch('urn:patch:p', [{ op: 'replace', path: 'avoidUpsize', value: 'yes' }], by),
    ).rejects.toMatchObject({ status: 400, details: [{ field: 'avoidUpsize' }] });
    await expect(service.patch('urn:patch:p', [{ op: 'replace', path: 'colour', value: 1 }], by)).rejects.toMatchObject(
      { status: 400, message: 'operation 0: unknown path "colour"' },
    );
    await expect(
      service.patch('urn:patch:p', [{ op: 'replace', path: 'claimType', value: 'x' }], by),
    ).rejects.toMatchObject({ status: 400 });
    await expect(service.patch('urn:patch:p', [{ op: 'move', path: 'kind' }], by)).rejects.toMatchObject({
      status: 400,
    });
    expect(await service.get('urn:patch:p')).toEqual(before);
  });

  it('answers 404 for a missing claimType and 409 for a taken variable name', async () => {
    await expect(
      service.patch('urn:patch:none', [{ op: 'replace', path: 'sensitive', value: true }], by),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      service.patch('urn:patch:p', [{ op: 'replace', path: 'variableName', value: 'putA' }], by),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('checks groupNames when the kind becomes Group', async () => {
    await expect(
      service.patch('urn:patch:p', [{ op: 'replace', value: { kind: 'GroupClaimDefinition', groupNames: ['x'] } }], by),
    ).rejects.toMatchObject({ status: 400, message: 'groupNames: no group named x' });
    const patched = await service.patch(
      'urn:patch:p',
      [{ op: 'replace', value: { kind: 'GroupClaimDefinition', groupNames: ['SALES'] } }],
      by,
    );
    expect(patched.groupNames).toEqual(['Sales']);
    expect(patched.allowedValues).toBeUndefined();
  });
});
