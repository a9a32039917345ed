import { describe, expect, it } from 'vitest';
import { logoutRequestXml, logoutResponseXml } from './saml-logout-xml.js';
import { samlFieldParser } from './saml-xml.js';

describe('logoutRequestXml', () => {
  it('states whom the request signs out, its values escaped, the SessionIndex only when there is one', () => {
    const xml = logoutRequestXml({
      id: '_q1',
      issueInstant: new Date('2030-01-02T03:04:05Z'),
      destination: 'https://idp.example/slo?a=1&b=2',
      issuer: 'https://sp.example/runtime/saml2',
      nameId: 'a<b>&"c"@example.test',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      sessionIndex: '_s1',
    });
    const { LogoutRequest: request } = samlFieldParser.parse(xml);
    expect(request).toMatchObject({
      '@ID': '_q1',
      '@Version': '2.0',
      '@IssueInstant': '2030-01-02T03:04:05.000Z',
      '@Destination': 'https://idp.example/slo?a=1&amp;b=2',
      Issuer: 'https://sp.example/runtime/saml2',
      NameID: { '#text': 'a&lt;b&gt;&amp;&quot;c&quot;@example.test' },
      SessionIndex: '_s1',
    });
    const without = logoutRequestXml({
      id: '_q2',
      issueInstant: new Date(),
      destination: 'https://idp.example/slo',
      issuer: 'sp',
      nameId: 'n',
      nameIdFormat: 'f',
    });
    expect(without).not.toContain('SessionIndex');
  });
});

describe('logoutResponseXml', () => {
  it('answers the request with status Success, issued by this service, to the destination', () => {
    const xml = logoutResponseXml({ destination: 'https://idp.example/slo', issuer: 'sp', inResponseTo: '_q1' });
    const { LogoutResponse: response } = samlFieldParser.parse(xml);
    expect(response).toMatchObject({
      '@ID': expect.stringMatching(/^_[0-9a-f]{40}$/),
      '@Destination': 'https://idp.example/slo',
      '@InResponseTo': '_q1',
      Issuer: 'sp',
      Status: { StatusCode: { '@Value': 'urn:oasis:names:tc:SAML:2.0:status:Success' } },
    });
  });
});
