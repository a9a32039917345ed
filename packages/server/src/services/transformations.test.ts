import { type TransformationInput, Transformations_GetAllFilter } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRequest } from '../conventions/list.js';
import { auditRecords, connections } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { stopSandbox } from '../transformations/sandbox.js';
import { transformationService } from './transformations.js';

const by = { actor: 'tester', requestId: 'req-tr' };
const script = 'function transform(claims, context) {\n  return claims;\n}';

let ctx: TestContext;
let service: ReturnType<typeof transformationService>;

const auditOf = (entityKey: string) =>
  ctx.db
    .select({ operation: auditRecords.operation, changes: auditRecords.changes })
    .from(auditRecords)
    .where(and(eq(auditRecords.entityType, 'claim transformation'), eq(auditRecords.entityKey, entityKey)))
    .orderBy(auditRecords.id);

/** The error a call rejects with, as { status, message }. */
async function failure(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = (await call.then(
    () => ({ status: 200, message: '' }),
    (e: unknown) => e,
  )) as { status: number; message: string };
  return { status: error.status, message: error.message };
}

const excluded = (name: string, fields: Partial<TransformationInput> = {}): TransformationInput => ({
  name,
  type: 'ExcludedServiceClaims',
  ...fields,
});

beforeAll(async () => {
  ctx = await createTestContext();
  service = transformationService(ctx.db);
});

afterAll(async () => {
  await stopSandbox();
  await ctx?.close();
});

describe('create', () => {
  it('stores an Excluded… transformation with defaults, claim types as their definitions spell them, audited', async () => {
    const created = await service.create(excluded('DropMail', { claimTypes: ['EMAIL', 'email', 'given_name'] }), by);
    expect(created).toEqual({
      name: 'DropMail',
      type: 'ExcludedServiceClaims',
      accessOrganizationName: null,
      conditionNotApplyToRegisteredUsers: false,
      conditionNotApplyToUnregisteredUsers: false,
      conditionExpression: null,
      cultureCode: null,
      executeBeforeLoadingClaimsFromLocalStore: false,
      claimTypes: ['email', 'given_name'],
      script: null,
    });
    expect(await auditOf('DropMail')).toEqual([
      {
        operation: 'create',
        changes: { name: 'DropMail', type: 'ExcludedServiceClaims', claimTypes: ['email', 'given_name'] },
      },
    ]);
  });

  it('answers 409 for a name that exists in another case', async () => {
    expect(await failure(service.create(excluded('DROPMAIL'), by))).toEqual({
      status: 409,
      message: 'a claim transformation named DROPMAIL exists',
    });
  });

  it('answers 400 naming the claim types without a definition', async () => {
    expect(await failure(service.create(excluded('Unknown', { claimTypes: ['email', 'urn:nope'] }), by))).toEqual({
      status: 400,
      message: 'claimTypes: no claim definition of type urn:nope',
    });
  });

  it("answers 400 with the compiler's message and line for a script that does not compile", async () => {
    const bad = { name: 'Bad', type: 'Script' as const, script: 'function transform(c) {\n  return c +;\n}' };
    expect(await failure(service.create(bad, by))).toEqual({
      status: 400,
      message: "script: SyntaxError: unexpected token in expression: ';' at line 2",
    });
  });

  it('answers 400 for a Script transformation without a script, and for a script on another type', async () => {
    expect(await failure(service.create({ name: 'NoScript', type: 'Script' }, by))).toEqual({
      status: 400,
      message: 'a transformation of type Script needs a script',
    });
    expect(await failure(service.create(excluded('WithScript', { script }), by))).toEqual({
      status: 400,
      message: 'script: only a transformation of type Script has a script',
    });
    expect(await failure(service.create({ name: 'S', type: 'Script', script, claimTypes: ['email'] }, by))).toEqual({
      status: 400,
      message: 'claimTypes: a transformation of type Script has no claim-type rule list',
    });
  });

  it('answers 400 for a blank name', async () => {
    expect(await failure(service.create(excluded('  '), by))).toEqual({
      status: 400,
      message: 'a claim transformation name is required',
    });
  });
});

describe('update', () => {
  it('keeps the fields left out and changes the ones given', async () => {
    await service.create(excluded('Keep', { claimTypes: ['email'], cultureCode: 'nl-NL' }), by);
    const updated = await service.update(excluded('keep', { conditionNotApplyToRegisteredUsers: true }), by);
    expect(updated).toMatchObject({
      name: 'Keep',
      claimTypes: ['email'],
      cultureCode: 'nl-NL',
      conditionNotApplyToRegisteredUsers: true,
    });
  });

  it('turns a Script transformation into an Excluded… one without its script', async () => {
    await service.create({ name: 'Turn', type: 'Script', script }, by);
    const updated = await service.update({ name: 'Turn', type: 'ExcludedPassThroughClaims', claimTypes: ['name'] }, by);
    expect(updated).toMatchObject({ type: 'ExcludedPassThroughClaims', claimTypes: ['name'], script: null });
  });

  it('answers 404 for a transformation that does not exist', async () => {
    expect(await failure(service.update(excluded('Missing'), by))).toEqual({
      status: 404,
      message: 'claim transformation Missing does not exist',
    });
  });
});

describe('get', () => {
  it('answers an Excluded… transformation, and 400 for a Script one as the spec has it', async () => {
    expect(await service.get('dropmail')).toMatchObject({ name: 'DropMail' });
    await service.create({ name: 'Scripted', type: 'Script', script }, by);
    expect(await failure(service.get('Scripted'))).toEqual({
      status: 400,
      message:
        'the claim transformation Scripted is of type Script; this operation reads only transformations of type ' +
        'ExcludedPassThroughClaims or ExcludedServiceClaims (list it through /transformations/.filter)',
    });
    expect((await failure(service.get('Nope'))).status).toBe(404);
  });
});

describe('list', () => {
  it('filters and sorts over the listed fields', async () => {
    const request = listRequest(Transformations_GetAllFilter.list, {
      filter: 'type eq "Script"',
      sortBy: 'name',
      sortOrder: 'Descending',
    });
    const listing = await service.list(request);
    expect(listing.items.map((t) => t.name)).toEqual(['Scripted']);
    const registered = await service.list(
      listRequest(Transformations_GetAllFilter.list, { filter: 'conditionNotApplyToRegisteredUsers eq true' }),
    );
    expect(registered.items.map((t) => t.name)).toEqual(['Keep']);
  });
});

describe('delete', () => {
  it('answers 409 while a connection applies the transformation, and deletes it afterwards', async () => {
    await service.create(excluded('Applied'), by);
    await ctx.db
      .insert(connections)
      .values({ name: 'App', connectionType: 'Protocol', pluginType: 'OAuth20', claimTransformations: ['APPLIED'] });
    expect(await failure(service.delete('Applied', by))).toEqual({
      status: 409,
      message: 'the claim transformation Applied is used by the connection(s) App; it is not deleted',
    });
    await ctx.db.delete(connections).where(eq(connections.name, 'App'));
    await service.delete('applied', by);
    expect((await failure(service.get('Applied'))).status).toBe(404);
    expect((await auditOf('Applied')).map((a) => a.operation)).toEqual(['create', 'delete']);
  });

  it('answers 404 for a missing transformation and 400 for a blank name', async () => {
    expect((await failure(service.delete('Gone', by))).status).toBe(404);
    expect((await failure(service.delete(' ', by))).status).toBe(400);
  });
});

describe('claim-type options', () => {
  it('adds a claim type as its definition spells it, once, with an audit record', async () => {
    await service.create(excluded('Opts'), by);
    const input = { transformationName: 'opts', claimType: 'GIVEN_NAME' };
    expect((await service.addClaimType('ExcludedServiceClaims', input, by)).claimTypes).toEqual(['given_name']);
    expect((await service.addClaimType('ExcludedServiceClaims', input, by)).claimTypes).toEqual(['given_name']);
    expect(await auditOf('Opts')).toEqual([
      { operation: 'create', changes: { name: 'Opts', type: 'ExcludedServiceClaims' } },
      { operation: 'update', changes: { claimTypes: ['given_name'] } },
    ]);
  });

  it('answers 404 for another kind, a missing transformation or a claim type without a definition', async () => {
    const add = (transformationName: string, claimType: string) =>
      failure(service.addClaimType('ExcludedPassThroughClaims', { transformationName, claimType }, by));
    expect(await add('Opts', 'email')).toEqual({
      status: 404,
      message: 'claim transformation Opts is of type ExcludedServiceClaims, not ExcludedPassThroughClaims',
    });
    expect(await add('Nope', 'email')).toEqual({ status: 404, message: 'claim transformation Nope does not exist' });
    await service.create({ name: 'Pass', type: 'ExcludedPassThroughClaims' }, by);
    expect(await add('Pass', 'urn:nope')).toEqual({ status: 404, message: 'no claim definition of type urn:nope' });
    expect(await add(' ', ' ')).toEqual({
      status: 400,
      message: 'transformationName and claimType must not be empty',
    });
  });

  it('removes a claim type; leaves another kind unchanged; answers nothing for a missing transformation', async () => {
    const input = { transformationName: 'Opts', claimType: 'Given_Name' };
    expect(await service.removeClaimType('ExcludedPassThroughClaims', input, by)).toMatchObject({
      claimTypes: ['given_name'],
    });
    expect(await service.removeClaimType('ExcludedServiceClaims', input, by)).toMatchObject({ claimTypes: [] });
    expect(await service.removeClaimType('ExcludedServiceClaims', input, by)).toMatchObject({ claimTypes: [] });
    const missing = { transformationName: 'Nope', claimType: 'email' };
    expect(await service.removeClaimType('ExcludedServiceClaims', missing, by)).toBeUndefined();
    expect((await auditOf('Opts')).map((a) => a.operation)).toEqual(['create', 'update', 'update']);
  });
});

describe('testScript and byNames', () => {
  it('answers true for a script that compiles and 400 with the line for one that does not', async () => {
    expect(await service.testScript(script)).toBe(true);
    expect(await failure(service.testScript('function transform(c) {\n  return c;\n  }\n}'))).toEqual({
      status: 400,
      message: "SyntaxError: unexpected token in expression: '}' at line 4",
    });
  });

  it('answers the named transformations in the order given, leaving out missing names', async () => {
    const found = await service.byNames(['KEEP', 'nope', 'dropmail']);
    expect(found.map((t) => t.name)).toEqual(['Keep', 'DropMail']);
  });
});
