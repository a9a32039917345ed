import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { runtimePaths } from '../defaults.js';
import { HTTP_POST_BINDING, HTTP_REDIRECT_BINDING } from './saml-binding.js';
import { samlServiceProvider } from './saml-provider.js';
import { SOAP_BINDING } from './saml-soap.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /runtime/saml2/metadata.idp[?connectionId=<guid>]`: this service's SAML 2.0 service provider metadata (entity
 * id, assertion consumer service, single logout service (HTTP-Redirect, then HTTP-POST at the same address, then SOAP
 * at its own), and the certificate of its credential as signing and encryption key), to register at an identity
 * provider. With the id of a Saml20 authentication connection it states that connection's NameID format, whether it
 * wants signed assertions and whether its AuthnRequests are signed; 404 for any other id.
 */
export function samlMetadataRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.samlMetadata, async (c) => {
    const connectionId = c.req.query('connectionId');
    let configuration: Record<string, unknown> = {};
    if (connectionId !== undefined) {
      const [row] = GUID.test(connectionId)
        ? await ctx.db
            .select({ configuration: connections.configuration })
            .from(connections)
            .where(
              and(
                eq(connections.id, connectionId),
                eq(connections.pluginType, 'Saml20'),
                eq(connections.connectionType, 'Authentication'),
              ),
            )
        : [];
      if (!row) return c.text('no Saml20 authentication connection has this id', 404);
      configuration = row.configuration;
    }
    const sp = await samlServiceProvider(ctx);
    const { privateKeyPem, certificatePem } = sp.credential;
    const xml = generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      logoutCallbackUrl: sp.sloUrl,
      identifierFormat: typeof configuration.nameIdFormat === 'string' ? configuration.nameIdFormat : null,
      wantAssertionsSigned: configuration.wantAssertionsSigned !== false,
      // The key itself goes nowhere: node-saml wants it only to publish the certificate as KeyDescriptors.
      privateKey: privateKeyPem,
      publicCerts: certificatePem,
      decryptionPvk: privateKeyPem,
      decryptionCert: certificatePem,
    });
    const soapUrl = `${ctx.baseUrl()}${runtimePaths.samlSloSoap}`;
    const signed = authnRequestsSigned(xml, configuration.signAuthenticationRequests === true);
    return c.body(logoutServices(signed, soapUrl), 200, {
      'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
    });
  });
  return app;
}

/**
 * node-saml states AuthnRequestsSigned="true" whenever it publishes a signing key; the metadata says true only of a
 * connection whose requests are signed.
 */
function authnRequestsSigned(xml: string, signed: boolean): string {
  return xml.replace(/(<SPSSODescriptor\b[^>]*?\bAuthnRequestsSigned=")[^"]*"/, `$1${signed}"`);
}

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * node-saml states one single logout service, of the HTTP-POST binding; this service's takes HTTP-Redirect (stated
 * first, the binding it prefers) and HTTP-POST, at the same address, and SOAP (back channel) at `soapUrl`.
 */
function logoutServices(xml: string, soapUrl: string): string {
  return xml.replace(/^([ \t]*)(<SingleLogoutService\b[^>]*?\bBinding=")[^"]*("[^>]*>)/m, (_, indent, head, tail) =>
    [
      ...[HTTP_REDIRECT_BINDING, HTTP_POST_BINDING].map((binding) => `${indent}${head}${binding}${tail}`),
      `${indent}${head}${SOAP_BINDING}${tail.replace(/\bLocation="[^"]*"/, `Location="${xmlText(soapUrl)}"`)}`,
    ].join('\n'),
  );
}
