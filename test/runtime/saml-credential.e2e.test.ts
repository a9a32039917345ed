import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { samlMetadataRoute } from '../../packages/server/dist/runtime/upstream/saml-metadata-route.js';
import {
  encryptedSamlResponse,
  makeSamlSigner,
  redirectSignatureVerifies,
  type SamlResponseInput,
  type SamlSigner,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent, type Outcome } from './agent.js';
import {
  acsUrl,
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  finishCodeFlow,
  hasSession,
  keyDescriptors,
  postToAcs,
  redirectUri,
  type SentRequest,
  startSamlSignIn,
  uploadedSigner,
} from './saml-idp.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  events,
  expectInvalidUpstreamAnswer,
  runtimeServerPerFile,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const metadataPath = '/runtime/saml2/metadata.idp';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** A Saml20 connection's entity id and configuration; its name and id once created. */
const saml20 = (entityId: string, configuration: Record<string, unknown>) => ({
  name: '',
  id: '',
  entityId,
  configuration,
});
/** Three connections to one identity provider's key: the defaults, signed AuthnRequests, no signed assertions wanted. */
const idp = {
  plain: saml20('urn:idsvc-test:saml-idp-plain', {}),
  signing: saml20('urn:idsvc-test:saml-idp-signing', { signAuthenticationRequests: true }),
  lax: saml20('urn:idsvc-test:saml-idp-lax', { wantAssertionsSigned: false }),
};
type Idp = (typeof idp)[keyof typeof idp];
let signer: SamlSigner;
let client: CreatedClient;
/** This service's certificate, as its metadata publishes it. */
let spCertificate: string;

async function metadata(query = ''): Promise<string> {
  const response = await fetch(`${rp.server.url}${metadataPath}${query}`);
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  for (const connection of Object.values(idp)) {
    connection.name = unique('SamlIdp');
    connection.id = await createSaml20Connection(rp.server, { ...connection, signer });
  }
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri] },
    dependencyConnectionNames: Object.values(idp).map((c) => c.name),
  });
  spCertificate = keyDescriptors(await metadata()).encryption[0];
});

const startSignIn = (agent: Agent, connection: Idp, state = 'enc'): Promise<SentRequest> =>
  startSamlSignIn(agent, authorizeUrl(rp.server, client, { whr: `name:${connection.name}`, state }));

/** The identity provider's answer with its assertion encrypted for `certificate`. */
const encryptedAnswer = (
  sent: SentRequest,
  connection: Idp,
  input: Partial<SamlResponseInput> & { nameId: string },
  certificate = spCertificate,
) =>
  encryptedSamlResponse(
    {
      issuer: connection.entityId,
      destination: acsUrl(rp.server),
      audience: `${rp.server.url}/runtime/saml2`,
      inResponseTo: sent.id,
      nameIdFormat: EMAIL_FORMAT,
      signer,
      ...input,
    },
    certificate,
  );

describe('the SAML service provider credential', () => {
  it('is published in the metadata for signing and for encryption, the same on every fetch and in every context', async () => {
    const first = await metadata();
    const keys = keyDescriptors(first);
    expect(keys).toEqual({ signing: [spCertificate], encryption: [spCertificate] });
    expect(new X509Certificate(spCertificate).subject).toBe('CN=127.0.0.1');
    expect(first).toContain('AuthnRequestsSigned="false"');
    expect(keyDescriptors(await metadata())).toEqual(keys);
    // A second context over the same database (another instance) reads the credential from the database.
    const elsewhere = await samlMetadataRoute({ ...rp.server.ctx }).request(metadataPath);
    expect(elsewhere.status).toBe(200);
    expect(keyDescriptors(await elsewhere.text())).toEqual(keys);
  });

  it('states AuthnRequestsSigned="true" only for a connection that signs its requests', async () => {
    const signing = await metadata(`?connectionId=${idp.signing.id}`);
    expect(signing).toContain('AuthnRequestsSigned="true"');
    expect(keyDescriptors(signing)).toEqual({ signing: [spCertificate], encryption: [spCertificate] });
    const plain = await metadata(`?connectionId=${idp.plain.id}`);
    expect(plain).toContain('AuthnRequestsSigned="false"');
    expect(keyDescriptors(plain)).toEqual({ signing: [spCertificate], encryption: [spCertificate] });
  });

  it('signs the HTTP-Redirect AuthnRequest of a connection with signAuthenticationRequests (SigAlg, Signature)', async () => {
    const sent = await startSignIn(new Agent(rp.server.url), idp.signing);
    expect([...sent.url.searchParams.keys()]).toEqual(['SAMLRequest', 'RelayState', 'SigAlg', 'Signature']);
    expect(sent.url.searchParams.get('SigAlg')).toBe(RSA_SHA256);
    expect(sent.xml).not.toContain('Signature');
    expect(redirectSignatureVerifies(sent.url, spCertificate)).toBe(true);
    expect(redirectSignatureVerifies(sent.url, signer.pem)).toBe(false);
    const altered = new URL(sent.url);
    altered.searchParams.set('RelayState', `${sent.relayState}x`);
    expect(redirectSignatureVerifies(altered, spCertificate)).toBe(false);
  });

  it('sends the AuthnRequest of a connection without signAuthenticationRequests unsigned', async () => {
    const sent = await startSignIn(new Agent(rp.server.url), idp.plain);
    expect([...sent.url.searchParams.keys()]).toEqual(['SAMLRequest', 'RelayState']);
  });

  it('decrypts a signed, then encrypted assertion and signs the user in', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, idp.plain, 'enc');
    const response = await encryptedAnswer(sent, idp.plain, { nameId: String(user.email) });
    const xml = Buffer.from(response, 'base64').toString();
    expect(xml).toMatch(/<saml:EncryptedAssertion>\s*<xenc:EncryptedData /);
    expect(xml).toContain('<xenc:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm" />');
    expect(xml).toContain('<e:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p">');
    expect(xml).not.toContain('<saml:Assertion');
    const outcome = await postToAcs(rp.server, agent, sent, response);
    expect(outcome.left?.searchParams.get('state')).toBe('enc');
    expect(await finishCodeFlow(rp.server, client, outcome.left!, 'enc')).toMatchObject({
      sub: user.id,
      amr: ['fed'],
    });
    expect(await hasSession(rp.server, client, agent)).toBe(true);
  });

  it('accepts an unsigned encrypted assertion in a signed response when signed assertions are not wanted', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, idp.lax, 'lax');
    const response = await encryptedAnswer(sent, idp.lax, {
      nameId: String(user.email),
      signAssertion: false,
      signResponse: true,
    });
    const outcome = await postToAcs(rp.server, agent, sent, response);
    expect(await finishCodeFlow(rp.server, client, outcome.left!, 'lax')).toMatchObject({ sub: user.id });
  });
});

describe('the SAML service provider credential: encrypted assertions that are refused', () => {
  let email: string;
  beforeAll(async () => {
    email = String((await createUser(rp.server)).email);
  });

  /** Posts the encrypted answer to a fresh sign-in: access_denied, one 4111 record, and no session in the browser. */
  async function deniedWith4111(
    connection: Idp,
    answer: (sent: SentRequest) => Promise<string>,
    description: RegExp,
  ): Promise<void> {
    const before = events(rp.server, 4111).length;
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, connection, 'no');
    const outcome: Outcome = await postToAcs(rp.server, agent, sent, await answer(sent));
    const logged = events(rp.server, 4111).slice(before);
    expectInvalidUpstreamAnswer(rp.server, { left: outcome.left, logged, connection: connection.name }, description);
    expect(agent.cookies.has('idsvc_session')).toBe(false);
    expect(await hasSession(rp.server, client, agent)).toBe(false);
  }

  it('an assertion encrypted for another key', async () => {
    const other = await makeSamlSigner();
    await deniedWith4111(
      idp.plain,
      (sent) => encryptedAnswer(sent, idp.plain, { nameId: email }, other.pem),
      // The encrypted key is no OAEP block under this service's key (or, as a number, larger than its modulus).
      /^the SAML response does not verify: Error: error:\w+:rsa routines::(oaep decoding error|data too large for modulus)$/,
    );
  });

  it('an unsigned encrypted assertion in an unsigned response, whether signed assertions are wanted or not', async () => {
    for (const connection of [idp.plain, idp.lax]) {
      await deniedWith4111(
        connection,
        (sent) => encryptedAnswer(sent, connection, { nameId: email, signAssertion: false }),
        /^the SAML response does not verify: Error: Invalid signature from encrypted assertion$/,
      );
    }
  });
});
