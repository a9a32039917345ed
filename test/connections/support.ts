import type { TestCertificate } from '../../packages/server/src/test-support/certificates.js';
import type { Api, Json } from '../helpers/api.js';
import { created } from '../helpers/fixtures.js';

export const connections = '/api/rest/v2/connections';

export type Connection = Json & {
  id: string;
  name: string;
  entityId: string | null;
  configuration: Json;
  certificates: string[];
  claimTransformations: string[];
};

export const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** SAML 2.0 identity provider metadata with one signing certificate. */
export const idpMetadata = (entityId: string, sso: string, cert: TestCertificate) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data><ds:X509Certificate>${cert.base64.replace(/(.{64})/g, '$1\n')}</ds:X509Certificate></ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleSignOnService Binding="${POST_BINDING}" Location="${sso}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

/** WS-Federation security token service metadata with one signing certificate. */
export const stsMetadata = (entityId: string, address: string, cert: TestCertificate) => `<?xml version="1.0"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706" xsi:type="fed:SecurityTokenServiceType"
      protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706">
    <KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data>
      <X509Certificate>${cert.base64}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>
    <fed:PassiveRequestorEndpoint><wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">
      <wsa:Address>${address}</wsa:Address></wsa:EndpointReference></fed:PassiveRequestorEndpoint>
  </RoleDescriptor>
</EntityDescriptor>`;

export const samlInput = (name: string, extra: Json = {}) => ({
  name,
  connectionType: 'Authentication',
  pluginType: 'Saml20',
  configuration: { entityId: `urn:e2e:${name}` },
  ...extra,
});

export const oauthInput = (name: string, configuration: Json = {}, extra: Json = {}) => ({
  name,
  connectionType: 'Protocol',
  pluginType: 'OAuth20',
  configuration,
  ...extra,
});

export async function createdConnection(admin: Api, body: unknown): Promise<Connection> {
  return (await created(admin, 'connections', body)) as Connection;
}

/** POSTs a client_credentials grant with the client's id and secret in the form. */
export async function clientCredentials(url: string, clientId: string, clientSecret: string) {
  const response = await fetch(new URL('/runtime/oauth2/token.idp', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}
