import type { Transformation } from '@idsvc/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { applies, applyTransformations, TransformationError } from './apply.js';
import { stopSandbox } from './sandbox.js';

const claims = [
  { type: 'email', value: 'ann@example.com' },
  { type: 'given_name', value: 'Ann' },
  { type: 'upstream_id', value: 'u-1' },
];

function transformation(fields: Partial<Transformation> & Pick<Transformation, 'name' | 'type'>): Transformation {
  return {
    accessOrganizationName: null,
    conditionNotApplyToRegisteredUsers: false,
    conditionNotApplyToUnregisteredUsers: false,
    conditionExpression: null,
    cultureCode: null,
    executeBeforeLoadingClaimsFromLocalStore: false,
    claimTypes: [],
    script: null,
    ...fields,
  };
}

const dropUpstream = transformation({
  name: 'DropUpstream',
  type: 'ExcludedPassThroughClaims',
  claimTypes: ['UPSTREAM_ID'],
});
const dropEmail = transformation({ name: 'DropEmail', type: 'ExcludedServiceClaims', claimTypes: ['email'] });

afterAll(async () => {
  await stopSandbox();
});

describe('applyTransformations', () => {
  it('drops the claims whose type is in an Excluded… rule list, in any case', async () => {
    expect(await applyTransformations(claims, [dropUpstream, dropEmail], { registeredUser: true })).toEqual([
      { type: 'given_name', value: 'Ann' },
    ]);
  });

  it('leaves the input list unchanged', async () => {
    const input = claims.map((c) => ({ ...c }));
    await applyTransformations(input, [dropEmail], { registeredUser: true });
    expect(input).toEqual(claims);
  });

  it('skips a transformation that does not apply to registered users for a registered user only', async () => {
    const notForRegistered = { ...dropEmail, conditionNotApplyToRegisteredUsers: true };
    expect(await applyTransformations(claims, [notForRegistered], { registeredUser: true })).toEqual(claims);
    expect(await applyTransformations(claims, [notForRegistered], { registeredUser: false })).toEqual([
      { type: 'given_name', value: 'Ann' },
      { type: 'upstream_id', value: 'u-1' },
    ]);
  });

  it('skips a transformation that does not apply to unregistered users for an unregistered user only', async () => {
    const notForUnregistered = { ...dropEmail, conditionNotApplyToUnregisteredUsers: true };
    expect(await applyTransformations(claims, [notForUnregistered], { registeredUser: false })).toEqual(claims);
    expect(await applyTransformations(claims, [notForUnregistered], { registeredUser: true })).toHaveLength(2);
  });

  it('runs only the transformations of the phase asked for', async () => {
    const before = { ...dropUpstream, executeBeforeLoadingClaimsFromLocalStore: true };
    const phases = { registeredUser: true };
    expect(
      await applyTransformations(claims, [before, dropEmail], { ...phases, beforeLoadingClaimsFromLocalStore: true }),
    ).toEqual([
      { type: 'email', value: 'ann@example.com' },
      { type: 'given_name', value: 'Ann' },
    ]);
    expect(
      await applyTransformations(claims, [before, dropEmail], { ...phases, beforeLoadingClaimsFromLocalStore: false }),
    ).toEqual([
      { type: 'given_name', value: 'Ann' },
      { type: 'upstream_id', value: 'u-1' },
    ]);
  });

  it('runs a Script transformation in the sandbox, in order, with its context', async () => {
    const script = `function transform(claims, context) {
      return claims.concat([{ type: 'via', value: context.transformationName + ':' + context.registeredUser + ':' + context.cultureCode }]);
    }`;
    const addVia = transformation({ name: 'AddVia', type: 'Script', script, cultureCode: 'nl-NL' });
    expect(await applyTransformations(claims, [dropEmail, addVia, dropUpstream], { registeredUser: false })).toEqual([
      { type: 'given_name', value: 'Ann' },
      { type: 'via', value: 'AddVia:false:nl-NL' },
    ]);
  });

  it('throws a TransformationError naming the failing script transformation', async () => {
    const looping = transformation({ name: 'Loops', type: 'Script', script: 'function transform(c) { for (;;) {} }' });
    const error = await applyTransformations(claims, [looping], { registeredUser: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransformationError);
    expect((error as TransformationError).transformationName).toBe('Loops');
    expect((error as TransformationError).message).toMatch(
      /^claim transformation Loops: the script ran longer than 100 ms/,
    );
  });
});

describe('applies', () => {
  it('answers whether the conditions let the transformation run', () => {
    expect(applies(dropEmail, { registeredUser: true })).toBe(true);
    expect(applies({ ...dropEmail, conditionNotApplyToRegisteredUsers: true }, { registeredUser: true })).toBe(false);
    expect(applies({ ...dropEmail, conditionNotApplyToUnregisteredUsers: true }, { registeredUser: true })).toBe(true);
  });
});
