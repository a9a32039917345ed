import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCertificate } from '../certificates/parse.js';
import { ApiError } from '../http/api-error.js';
import { metadataSettings, parseMetadata } from './metadata.js';
import { loadMetadata } from './metadata-source.js';

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** A self-signed RSA certificate, base64 DER, made with WebCrypto. */
async function makeCertificate(subject: string): Promise<string> {
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    name: subject,
    notBefore: new Date('2024-01-01T00:00:00Z'),
    notAfter: new Date('2034-01-01T00:00:00Z'),
    signingAlgorithm: algorithm,
    keys,
  });
  return Buffer.from(cert.rawData).toString('base64');
}

/** Base64 wrapped at 64 characters, as metadata documents usually hold it. */
const wrapped = (base64: string) => base64.replace(/(.{64})/g, '$1\n          ');

const keyDescriptor = (cert: string, use?: string) => `
    <md:KeyDescriptor${use ? ` use="${use}"` : ''}>
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data><ds:X509Certificate>
          ${wrapped(cert)}
        </ds:X509Certificate></ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>`;

const samlIdp = (signing: string, encryption: string) => `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.org/saml">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keyDescriptor(signing, 'signing')}
    ${keyDescriptor(encryption, 'encryption')}
    <md:SingleLogoutService Binding="${REDIRECT}" Location="https://idp.example.org/slo" ResponseLocation="https://idp.example.org/slo/response"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example.org/sso/redirect"/>
    <md:SingleSignOnService Binding="${POST}" Location="https://idp.example.org/sso/post"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

const samlSp = (
  signing: string,
) => `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="urn:sp:portal">
  <SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keyDescriptor(signing).replace(/md:/g, '')}
    <AssertionConsumerService Binding="${POST}" Location="https://portal.example/acs" index="0"/>
  </SPSSODescriptor>
</EntityDescriptor>`;

const wsFederation = (signing: string) => `<?xml version="1.0" encoding="utf-8"?>
<EntityDescriptor ID="_a1" entityID="http://sts.example.com/adfs/services/trust" xmlns="urn:oasis:names:tc:SAML:2.0:metadata">
  <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>AAAA</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>
  <RoleDescriptor xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706">
    <KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>${signing}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>
    <fed:PassiveRequestorEndpoint>
      <wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing"><wsa:Address>https://sts.example.com/adfs/ls/</wsa:Address></wsa:EndpointReference>
    </fed:PassiveRequestorEndpoint>
  </RoleDescriptor>
</EntityDescriptor>`;

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

async function asyncRejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

let signing: string;
let encryption: string;

beforeAll(async () => {
  signing = await makeCertificate('CN=Example IdP signing, O=Example');
  encryption = await makeCertificate('CN=Example IdP encryption');
});

describe('parseMetadata and metadataSettings', () => {
  it('reads a SAML 2.0 identity provider: entity id, endpoints with bindings, signing certificates only', () => {
    const entities = parseMetadata(samlIdp(signing, encryption));
    expect(metadataSettings(entities, 'Saml20', 'Authentication')).toEqual({
      configuration: {
        entityId: 'https://idp.example.org/saml',
        singleSignOnServices: [
          { binding: REDIRECT, location: 'https://idp.example.org/sso/redirect' },
          { binding: POST, location: 'https://idp.example.org/sso/post' },
        ],
        singleLogoutServices: [
          {
            binding: REDIRECT,
            location: 'https://idp.example.org/slo',
            responseLocation: 'https://idp.example.org/slo/response',
          },
        ],
        nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      },
      signingCertificates: [signing],
    });
  });

  it('gives base64 DER certificates that parse, with their subject and thumbprint', () => {
    const [cert] = metadataSettings(
      parseMetadata(samlIdp(signing, encryption)),
      'Saml20',
      'Authentication',
    ).signingCertificates;
    const parsed = parseCertificate(cert);
    expect(parsed.subject).toBe('CN=Example IdP signing, O=Example');
    expect(parsed.thumbprint).toBe(
      createHash('sha1').update(Buffer.from(signing, 'base64')).digest('hex').toUpperCase(),
    );
  });

  it('reads a SAML 2.0 service provider for a protocol connection (default namespace, no use attribute)', () => {
    expect(metadataSettings(parseMetadata(samlSp(signing)), 'Saml20', 'Protocol')).toEqual({
      configuration: {
        entityId: 'urn:sp:portal',
        singleLogoutServices: [],
        assertionConsumerServices: [{ binding: POST, location: 'https://portal.example/acs', index: 0 }],
      },
      signingCertificates: [signing],
    });
  });

  it('reads a WS-Federation security token service, not the certificate of the document signature', () => {
    expect(metadataSettings(parseMetadata(wsFederation(signing)), 'WsFederation', 'Authentication')).toEqual({
      configuration: {
        entityId: 'http://sts.example.com/adfs/services/trust',
        singleSignOnUrl: 'https://sts.example.com/adfs/ls/',
      },
      signingCertificates: [signing],
    });
  });

  it('picks the entity with the needed role from an EntitiesDescriptor', () => {
    const group = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${samlSp(signing)
      .replace('<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"', '<md:EntityDescriptor')
      .replace(
        /<(\/?)(?!md:)([A-Za-z])/g,
        '<$1md:$2',
      )}${samlIdp(signing, encryption).replace(/<\?xml[^>]*\?>/, '')}</md:EntitiesDescriptor>`;
    const entities = parseMetadata(group);
    expect(entities.map((e) => e.entityId)).toEqual(['urn:sp:portal', 'https://idp.example.org/saml']);
    expect(metadataSettings(entities, 'Saml20', 'Authentication').configuration.entityId).toBe(
      'https://idp.example.org/saml',
    );
  });

  it('refuses metadata without the role, malformed XML, a DOCTYPE and other plugin types', () => {
    const idp = parseMetadata(samlIdp(signing, encryption));
    expect(rejection(() => metadataSettings(idp, 'Saml20', 'Protocol'))).toBe(
      'the metadata describes no SAML 2.0 SPSSODescriptor',
    );
    expect(rejection(() => metadataSettings(idp, 'WsFederation', 'Authentication'))).toBe(
      'the metadata describes no WS-Federation RoleDescriptor of type SecurityTokenServiceType',
    );
    expect(rejection(() => metadataSettings(idp, 'OAuth20', 'Protocol'))).toBe(
      'a metadataReference applies to Saml20 and WsFederation connections, not OAuth20',
    );
    expect(rejection(() => parseMetadata('<EntityDescriptor entityID="x">'))).toMatch(
      /^the metadata is not well-formed XML/,
    );
    expect(rejection(() => parseMetadata('<!DOCTYPE x [<!ENTITY a "b">]><x/>'))).toBe(
      'the metadata must not hold a DOCTYPE declaration',
    );
    expect(rejection(() => parseMetadata('<Other/>'))).toBe('the metadata holds no EntityDescriptor with an entityID');
  });
});

describe('loadMetadata', () => {
  let dir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'idsvc-metadata-'));
    server = createServer((req, res) => {
      if (req.url === '/metadata.xml') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
        res.end(samlIdp(signing, encryption));
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/metadata.xml' });
        res.end();
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end('x'.repeat(5000));
      } else if (req.url === '/slow') {
        // never answers
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the XML itself, trimmed, and nothing for an empty reference', async () => {
    expect(await loadMetadata({ metadataXml: '  <x/> ', metadataFileUri: 'https://ignored' })).toBe('<x/>');
    expect(await loadMetadata({ metadataXml: ' ', metadataFileUri: null })).toBeUndefined();
    expect(await loadMetadata(null)).toBeUndefined();
  });

  it('reads an absolute file path and a file: URL', async () => {
    const file = join(dir, 'idp.xml');
    writeFileSync(file, samlIdp(signing, encryption));
    expect(await loadMetadata({ metadataFileUri: file })).toBe(samlIdp(signing, encryption));
    expect(await loadMetadata({ metadataFileUri: pathToFileURL(file).href })).toBe(samlIdp(signing, encryption));
  });

  it('refuses a relative path, a missing file, a folder and a file over the limit', async () => {
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: 'idp.xml' }))).toBe(
      'metadataFileUri idp.xml must be an absolute file path',
    );
    const missing = join(dir, 'missing.xml');
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: missing }))).toBe(
      `the metadata file ${missing} cannot be read: it does not exist`,
    );
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: dir }))).toBe(
      `the metadata file ${dir} is not a file`,
    );
    const big = join(dir, 'big.xml');
    writeFileSync(big, 'x'.repeat(200));
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: big }, { maxBytes: 100 }))).toBe(
      `the metadata file ${big} is larger than 100 bytes`,
    );
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: 'ftp://host/x.xml' }))).toBe(
      'metadataFileUri must be an http(s) address, a file: URL or an absolute file path',
    );
  });

  it('fetches an http address, following a redirect', async () => {
    expect(await loadMetadata({ metadataFileUri: `${base}/metadata.xml` })).toBe(samlIdp(signing, encryption));
    expect(await loadMetadata({ metadataFileUri: `${base}/moved` })).toBe(samlIdp(signing, encryption));
  });

  it('refuses an error status, a body over the limit, a timeout and a refused connection', async () => {
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: `${base}/nothing` }))).toBe(
      `fetching the metadata from ${base}/nothing answered HTTP 404`,
    );
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: `${base}/big` }, { maxBytes: 1000 }))).toBe(
      `the metadata at ${base}/big is larger than 1000 bytes`,
    );
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: `${base}/slow` }, { timeoutMs: 300 }))).toMatch(
      new RegExp(`^the metadata cannot be fetched from ${base}/slow: `),
    );
    expect(await asyncRejection(() => loadMetadata({ metadataFileUri: 'http://127.0.0.1:1/x' }))).toBe(
      'the metadata cannot be fetched from http://127.0.0.1:1/x: ECONNREFUSED',
    );
  });
});
