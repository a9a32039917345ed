import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimePaths } from '../defaults.js';
import { samlCredential } from './saml-credential.js';
import { wsfedMetadataXml } from './wsfed-metadata.js';
import { wsfedRelyingParty } from './wsfed-provider.js';

/**
 * `GET /runtime/wsfed/FederationMetadata/2007-06/FederationMetadata.xml`: this service's WS-Federation metadata as a
 * relying party, for a security token service to register it from: its realm, its reply address and the certificate
 * of its credential (the one its SAML metadata publishes) to encrypt tokens for. The document is SAML 2.0 metadata
 * (an EntityDescriptor, WS-Federation extending its RoleDescriptor), so it goes out as such, the media type the SAML
 * metadata route uses too; cached as that route's is (no Cache-Control set).
 */
export function wsfedMetadataRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.wsfedMetadata, async (c) => {
    const { certificatePem } = await samlCredential(ctx);
    return c.body(wsfedMetadataXml(wsfedRelyingParty(ctx.baseUrl()), certificatePem), 200, {
      'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
    });
  });
  return app;
}
