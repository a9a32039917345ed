// The peer for `pnpm bench`: node-oidc-provider 8, in memory, RS256 JWT access tokens, configured like idsvc's bench
// clients (client_credentials with the basic header; a password grant checking argon2id hashes with the same
// parameters). Run as its own process: prints `listening on <url>`.
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import Provider, { errors } from 'oidc-provider';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const { hash, verify } = require('@node-rs/argon2');
const argon2id = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

const port = Number(process.argv[2] ?? 0) || 0;
const password = process.env.BENCH_PASSWORD ?? 'bench-User-pass-1';
const secret = process.env.BENCH_SECRET ?? 'bench-client-secret-0123456789abcdef';
const resource = 'urn:bench:api';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' };
const users = new Map([['bench-user', { id: 'bench-user-id', hash: await hash(password, argon2id) }]]);

const resourceServer = {
  scope: 'api',
  audience: resource,
  accessTokenTTL: 3600,
  accessTokenFormat: 'jwt',
  jwt: { sign: { alg: 'RS256' } },
};

const server = (await import('node:http')).createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(url, {
  clients: [
    {
      client_id: 'bench-cc',
      client_secret: secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'bench-pw',
      client_secret: secret,
      grant_types: ['password'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk] },
  scopes: ['api'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => resourceServer,
    },
  },
});
provider.proxy = false;

// ROPC is not built into oidc-provider 8: the same steps as idsvc's password grant, as a registered grant type.
provider.registerGrantType(
  'password',
  async (ctx) => {
    const { username, password: given } = ctx.oidc.params;
    const user = users.get(username);
    if (!user || !(await verify(user.hash, given))) throw new errors.InvalidGrant('wrong user name or password');
    const { AccessToken, ResourceServer } = ctx.oidc.provider;
    const token = new AccessToken({ accountId: user.id, client: ctx.oidc.client, scope: 'api', gty: 'password' });
    token.resourceServer = new ResourceServer(resource, resourceServer);
    ctx.body = {
      access_token: await token.save(),
      token_type: 'Bearer',
      expires_in: token.expiration,
      scope: token.scope,
    };
  },
  ['username', 'password', 'scope'],
);

server.on('request', provider.callback());
process.stdout.write(`peer listening on ${url}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
