import 'reflect-metadata';
import type { ConnectionInput } from '@idsvc/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections } from '../db/schema/index.js';
import { ApiError } from '../http/api-error.js';
import { authenticateClient, readClientCredentials } from '../runtime/clients.js';
import { assertionClaims, assertionForm, clientKey, signAssertion } from '../test-support/client-assertions.js';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../test-support/context.js';
import { connectionService } from './connections.js';

const by = { actor: 'tester', requestId: 'req-ca' };
const issuer = `${TEST_BASE_URL}/runtime/oauth2`;
let ctx: TestContext;
let service: ReturnType<typeof connectionService>;

beforeAll(async () => {
  ctx = await createTestContext();
  service = connectionService(ctx.db, ctx.box);
});
afterAll(async () => {
  await ctx?.close();
});

const client = (name: string, configuration: Record<string, unknown> = {}): ConnectionInput => ({
  name,
  connectionType: 'Protocol',
  pluginType: 'OAuth20',
  configuration: { clientId: `${name}-client`, allowedGrantTypes: ['client_credentials'], ...configuration },
});

const row = async (name: string) => (await ctx.db.select().from(connections).where(eq(connections.name, name)))[0];

async function rejection(run: Promise<unknown>): Promise<{ status: number; message: string; details: unknown }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a rejection');
}

/** The client authenticates with an HS256 client_secret_jwt assertion signed with `secret`. */
async function authenticatesWith(clientId: string, secret: string): Promise<boolean> {
  const assertion = await signAssertion(assertionClaims(clientId, issuer), secret, { alg: 'HS256' });
  const found = await authenticateClient(ctx, readClientCredentials(undefined, assertionForm(assertion)));
  return found.clientId === clientId;
}

describe('OAuth20 client authentication settings', () => {
  it('keeps the secret of a client_secret_jwt client sealed, so that the runtime verifies its assertions', async () => {
    const secret = 's'.repeat(40);
    await service.create(client('csj', { tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: secret }), by);
    const stored = await row('csj');
    expect(stored.clientSecretHash).toBeNull();
    expect(ctx.box.open(stored.clientSecretEnc!)).toBe(secret);
    expect(await authenticatesWith('csj-client', secret)).toBe(true);
  });

  it('generates a sealed secret for a new client_secret_jwt client', async () => {
    const created = await service.create(client('csj-new', { tokenEndpointAuthMethod: 'client_secret_jwt' }), by);
    const secret = created.configuration.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await row('csj-new')).clientSecretHash).toBeNull();
    expect(await authenticatesWith('csj-new-client', secret)).toBe(true);
  });

  it('needs a new clientSecret to switch a client whose secret is a digest to client_secret_jwt', async () => {
    await service.create(client('digest'), by);
    expect(
      await rejection(service.update(client('digest', { tokenEndpointAuthMethod: 'client_secret_jwt' }), by)),
    ).toEqual({
      status: 400,
      message: 'client_secret_jwt needs a new clientSecret (the stored one is kept as a digest)',
      details: [{ field: 'configuration.clientSecret', message: 'required to switch to client_secret_jwt' }],
    });
    const secret = 'n'.repeat(32);
    await service.update(client('digest', { tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: secret }), by);
    expect(await row('digest')).toMatchObject({ clientSecretHash: null });
    expect(await authenticatesWith('digest-client', secret)).toBe(true);
  });

  it('generates no secret for a private_key_jwt client, and keeps its public keys', async () => {
    const key = await clientKey('ES256');
    const jwks = { keys: [key.publicJwk] };
    const created = await service.create(client('pkj', { tokenEndpointAuthMethod: 'private_key_jwt', jwks }), by);
    expect(created.configuration.clientSecret).toBeUndefined();
    expect(created.configuration).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    expect(await row('pkj')).toMatchObject({ clientSecretHash: null, clientSecretEnc: null });
  });

  it('answers 400 naming a private key member given in jwks', async () => {
    const key = await clientKey('RS256');
    const privateJwk = { ...key.publicJwk, d: 'private-exponent' };
    const refused = await rejection(service.create(client('leaky', { jwks: { keys: [privateJwk] } }), by));
    expect(refused).toEqual({
      status: 400,
      message:
        'invalid OAuth20 configuration: configuration.jwks.keys.0.d is a private key member: give public keys only',
      details: [{ field: 'configuration.jwks.keys.0.d', message: 'is a private key member: give public keys only' }],
    });
    expect(await row('leaky')).toBeUndefined();
  });
});
