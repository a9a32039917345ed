import { X509Certificate } from 'node:crypto';
import { CONTENT_ENCRYPTION_ALGORITHMS, KEY_TRANSPORT_ALGORITHMS } from './wsfed-decrypt.js';
import type { WsFedRelyingParty } from './wsfed-provider.js';
import { ns } from './wsfed-xml.js';

/** Text or attribute value, escaped for XML. */
const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A WS-Addressing endpoint reference to `address`, as the federation metadata elements hold one. */
const endpoint = (address: string, indent: string) =>
  [
    `${indent}<wsa:EndpointReference xmlns:wsa="${ns.wsa}">`,
    `${indent}  <wsa:Address>${xmlText(address)}</wsa:Address>`,
    `${indent}</wsa:EndpointReference>`,
  ].join('\n');

/**
 * This service's federation metadata as a WS-Federation relying party (WS-Federation 1.2 §3.1), for a security token
 * service (AD FS) to import: a SAML 2.0 metadata EntityDescriptor whose entityID is the realm, holding one
 * RoleDescriptor of fed:ApplicationServiceType with the key tokens may be encrypted for (the certificate, its DER in
 * base64, and the algorithms accepted), the realm as its target scope and the reply address as its passive requestor
 * endpoint. Not signed.
 */
export function wsfedMetadataXml(rp: WsFedRelyingParty, encryptionCertificatePem: string): string {
  const certificate = new X509Certificate(encryptionCertificatePem).raw.toString('base64');
  const methods = [...CONTENT_ENCRYPTION_ALGORITHMS, ...KEY_TRANSPORT_ALGORITHMS].map(
    (algorithm) => `      <EncryptionMethod Algorithm="${xmlText(algorithm)}"/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<EntityDescriptor xmlns="${ns.md}" entityID="${xmlText(rp.realm)}">`,
    `  <RoleDescriptor xmlns:xsi="${ns.xsi}" xmlns:fed="${ns.fed}" xsi:type="fed:ApplicationServiceType"`,
    `   protocolSupportEnumeration="${ns.fed}">`,
    '    <KeyDescriptor use="encryption">',
    `      <ds:KeyInfo xmlns:ds="${ns.dsig}">`,
    `        <ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data>`,
    '      </ds:KeyInfo>',
    ...methods,
    '    </KeyDescriptor>',
    '    <fed:TargetScopes>',
    endpoint(rp.realm, '      '),
    '    </fed:TargetScopes>',
    '    <fed:PassiveRequestorEndpoint>',
    endpoint(rp.replyUrl, '      '),
    '    </fed:PassiveRequestorEndpoint>',
    '  </RoleDescriptor>',
    '</EntityDescriptor>',
    '',
  ].join('\n');
}
