import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SamlSigner } from '../../test-support/saml-identity-provider.js';
import { makeWsFedSigner } from '../../test-support/wsfed-identity-provider.js';
import { wsfedMetadataXml } from './wsfed-metadata.js';
import { wsfedRelyingParty } from './wsfed-provider.js';
import { attributeOf, childElements, descendants, ns, parseUntrustedXml, textOf } from './wsfed-xml.js';

let credential: SamlSigner;
beforeAll(async () => {
  credential = await makeWsFedSigner();
});

describe('wsfedMetadataXml', () => {
  it('the relying party: entityID the realm, one ApplicationServiceType role, its key, scope and endpoint', () => {
    const xml = wsfedMetadataXml(wsfedRelyingParty('https://idsvc.example'), credential.pem);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idsvc.example/runtime/wsfed">',
        '  <RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706" xsi:type="fed:ApplicationServiceType"',
        '   protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706">',
        '    <KeyDescriptor use="encryption">',
        '      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">',
        `        <ds:X509Data><ds:X509Certificate>${credential.base64}</ds:X509Certificate></ds:X509Data>`,
        '      </ds:KeyInfo>',
        '      <EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"/>',
        '      <EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes128-gcm"/>',
        '      <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>',
        '      <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>',
        '      <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"/>',
        '    </KeyDescriptor>',
        '    <fed:TargetScopes>',
        '      <wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">',
        '        <wsa:Address>https://idsvc.example/runtime/wsfed</wsa:Address>',
        '      </wsa:EndpointReference>',
        '    </fed:TargetScopes>',
        '    <fed:PassiveRequestorEndpoint>',
        '      <wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">',
        '        <wsa:Address>https://idsvc.example/runtime/wsfed/reply.idp</wsa:Address>',
        '      </wsa:EndpointReference>',
        '    </fed:PassiveRequestorEndpoint>',
        '  </RoleDescriptor>',
        '</EntityDescriptor>',
        '',
      ].join('\n'),
    );
  });

  it('escapes the addresses: a base URL with & and " reads back as it was', () => {
    const rp = { realm: 'https://idsvc.example/a?b=1&c="2"<x>', replyUrl: 'https://idsvc.example/r?x=1&y=2' };
    const doc = parseUntrustedXml(wsfedMetadataXml(rp, credential.pem));
    const entity = doc.documentElement;
    expect([entity.namespaceURI, entity.localName, attributeOf(entity, 'entityID')]).toEqual([
      ns.md,
      'EntityDescriptor',
      rp.realm,
    ]);
    const [role] = childElements(entity, ns.md, 'RoleDescriptor');
    expect(role.getAttributeNS(ns.xsi, 'type')).toBe('fed:ApplicationServiceType');
    expect(role.lookupNamespaceURI('fed')).toBe(ns.fed);
    const address = (name: string) =>
      textOf(
        descendants(role, ns.fed, [name]).flatMap((e) => descendants(e, ns.wsa, ['EndpointReference', 'Address']))[0],
      );
    expect(address('TargetScopes')).toBe(rp.realm);
    expect(address('PassiveRequestorEndpoint')).toBe(rp.replyUrl);
  });

  it('publishes the certificate as given, whatever its PEM line breaks', () => {
    const pem = credential.pem.replace(/\n/g, '\r\n');
    const doc = parseUntrustedXml(wsfedMetadataXml(wsfedRelyingParty('https://idsvc.example'), pem));
    const [key] = descendants(doc.documentElement, ns.md, ['RoleDescriptor', 'KeyDescriptor']);
    expect(attributeOf(key, 'use')).toBe('encryption');
    const body = textOf(descendants(key, ns.dsig, ['KeyInfo', 'X509Data', 'X509Certificate'])[0]) ?? '';
    expect(new X509Certificate(Buffer.from(body, 'base64')).fingerprint256).toBe(
      new X509Certificate(credential.pem).fingerprint256,
    );
  });
});
