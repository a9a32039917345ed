import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../crypto/password.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { claimDefinitions, connections, organizations, userClaims, users } from './schema/index.js';
import { seed } from './seed.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ seed: false, config: { adminPassword: undefined, adminUserName: 'root-admin' } });
});
afterAll(() => ctx.close());

async function counts() {
  const [orgs, conns, defs, people, claims] = await Promise.all([
    ctx.db.select().from(organizations),
    ctx.db.select().from(connections),
    ctx.db.select().from(claimDefinitions),
    ctx.db.select().from(users),
    ctx.db.select().from(userClaims),
  ]);
  return { orgs: orgs.length, conns: conns.length, defs: defs.length, people: people.length, claims: claims.length };
}

describe('seed', () => {
  it('creates the built-in objects and an administrator with a generated password', async () => {
    const { generatedAdminPassword } = await seed(ctx);
    expect(generatedAdminPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await counts()).toEqual({ orgs: 1, conns: 2, defs: 20, people: 1, claims: 1 });

    const [admin] = await ctx.db.select().from(users).where(eq(users.userName, 'root-admin'));
    expect(await verifyPassword(admin.passwordHash!, generatedAdminPassword!)).toBe(true);
    const [root] = await ctx.db.select().from(organizations);
    expect(root).toMatchObject({ name: 'Root', parentId: null });
    expect(admin).toMatchObject({ organizationId: root.id, active: true, locked: false });
    expect(await ctx.db.select({ type: userClaims.type, value: userClaims.value }).from(userClaims)).toEqual([
      { type: 'urn:identify:rest-api:role', value: 'Administrator' },
    ]);
  });

  it('seeds the UsernamePassword connection and the idsvc-cli public client', async () => {
    const [login] = await ctx.db.select().from(connections).where(eq(connections.name, 'UsernamePassword'));
    expect(login).toMatchObject({
      connectionType: 'Authentication',
      pluginType: 'UsernamePassword',
      enabled: true,
      configuration: { maximumFailedAttempts: 10 },
    });
    const [cli] = await ctx.db.select().from(connections).where(eq(connections.clientId, 'idsvc-cli'));
    expect(cli).toMatchObject({
      name: 'idsvc-cli',
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      clientSecretHash: null,
      scopes: ['identify*scim', 'offline_access', 'openid', 'profile', 'email'],
      configuration: {
        clientId: 'idsvc-cli',
        publicClient: true,
        allowedGrantTypes: ['password', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        redirectUris: [],
        accessTokenLifetime: 3600,
        refreshTokenLifetime: 2592000,
      },
    });
  });

  it('seeds the role claim definition and the OpenID Connect claims', async () => {
    const defs = await ctx.db.select().from(claimDefinitions);
    const byType = new Map(defs.map((d) => [d.claimType, d]));
    expect(byType.get('urn:identify:rest-api:role')).toMatchObject({
      kind: 'FreeClaimDefinition',
      variableName: 'restApiRole',
    });
    expect(byType.get('given_name')).toMatchObject({
      kind: 'FreeClaimDefinition',
      variableName: 'givenName',
      countSpecification: 'Single',
    });
    expect(byType.get('phone_number_verified')?.variableName).toBe('phoneNumberVerified');
    expect(byType.has('sub')).toBe(false);
  });

  it('creates nothing on later starts, also when they run at once', async () => {
    const before = await counts();
    const results = await Promise.all([seed(ctx), seed(ctx)]);
    expect(results).toEqual([{}, {}]);
    expect(await counts()).toEqual(before);
  });

  it('keeps an administrator whose password was changed, and adds nothing removed from other objects', async () => {
    await ctx.db.update(users).set({ passwordHash: 'changed' }).where(eq(users.userName, 'root-admin'));
    expect(await seed({ ...ctx, config: { ...ctx.config, adminPassword: 'another' } })).toEqual({});
    const [admin] = await ctx.db.select().from(users).where(eq(users.userName, 'root-admin'));
    expect(admin.passwordHash).toBe('changed');
  });
});
