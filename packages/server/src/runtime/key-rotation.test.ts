import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningKeys } from '../auth/signing-keys.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestClient } from '../test-support/fixtures.js';
import { runtimeDefaults } from './defaults.js';
import { longestTokenLifetime, rotateDueKeys } from './key-rotation.js';

const issuer = 'http://127.0.0.1:0/runtime/oauth2';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ keys: { algorithms: ['RS256', 'ES256'] } });
});
afterAll(() => ctx.close());

describe('signing key rotation', () => {
  it('makes an RS256 and an ES256 key at start and signs with each', async () => {
    const { keys } = await ctx.keys.jwks();
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    const es = await ctx.keys.sign({}, { issuer, expiresInSeconds: 60 }, 'ES256');
    expect(decodeProtectedHeader(es).alg).toBe('ES256');
    await expect(ctx.keys.verify(es, issuer)).resolves.toMatchObject({ iss: issuer });
  });

  it('keeps a retired key as long as the longest-lived token of any client', async () => {
    await createTestClient(ctx.db, ctx.box, { configuration: { accessTokenLifetime: 86_400 * 3 } });
    expect(await longestTokenLifetime(ctx)).toBe(86_400 * 3 + runtimeDefaults.clockSkew);
  });

  it('rotates nothing while the keys are young, then each key set once when due, publishing before signing', async () => {
    expect(await rotateDueKeys(ctx)).toEqual([]);
    let now = Date.now() + (runtimeDefaults.signingKeyRotationInterval + 1) * 1000;
    const later = await SigningKeys.load(ctx.db, ctx.box, { now: () => now, algorithms: ['RS256', 'ES256'] });
    const before = (await later.jwks()).keys.map((k) => k.kid);
    const rotated = await rotateDueKeys({ ...ctx, keys: later });
    expect(rotated).toHaveLength(2);
    // A second instance finds the rotation done.
    const other = await SigningKeys.load(ctx.db, ctx.box, { now: () => now });
    expect(await rotateDueKeys({ ...ctx, keys: other })).toEqual([]);
    const published = (await later.jwks()).keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([...before, ...rotated]));
    const signedNow = decodeProtectedHeader(await later.sign({}, { issuer, expiresInSeconds: 60 })).kid;
    expect(rotated).not.toContain(signedNow);
    now += (runtimeDefaults.signingKeyPublishDelay + 1) * 1000;
    const signedLater = decodeProtectedHeader(await later.sign({}, { issuer, expiresInSeconds: 60 })).kid;
    expect(rotated).toContain(signedLater);
  });
});
