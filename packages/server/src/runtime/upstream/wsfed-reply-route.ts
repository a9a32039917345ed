import type { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimePaths } from '../defaults.js';
import { federationReplyRoute } from './federation-reply.js';
import { UpstreamError } from './provider.js';
import { samlCredential } from './saml-credential.js';
import { verifyWsFedResult } from './wsfed-encrypted-token.js';
import { wsfedRelyingParty, wsfedTokenService } from './wsfed-provider.js';
import type { WsFedContext } from './wsfed-start.js';

/**
 * The reply address of upstream WS-Federation sign-in (passive requestor profile, WS-Federation 1.2 §13): wa,
 * wresult (the token) and the sealed wctx posted by the security token service; the token's assertion (decrypted
 * with this service's credential, the one its metadata publishes, when it comes encrypted) is checked against the
 * connection's certificates, issuer and this service's realm.
 */
export function wsfedReplyRoute(ctx: AppContext): Hono {
  return federationReplyRoute(ctx, {
    path: runtimePaths.wsfedReply,
    protocol: 'wsfed',
    stateField: 'wctx',
    stateKind: 'wsfed-context' satisfies WsFedContext['kind'],
    provider: wsfedTokenService,
    verify: async (ctx, sts, form) => {
      if (form.get('wa') !== 'wsignin1.0') throw new UpstreamError('invalid_response', 'the post is not wa=wsignin1.0');
      const wresult = form.get('wresult');
      if (!wresult) throw new UpstreamError('invalid_response', 'the post holds no wresult');
      const decryptionKey = async () => (await samlCredential(ctx)).privateKeyPem;
      return verifyWsFedResult(sts, wsfedRelyingParty(ctx.baseUrl()), wresult, decryptionKey);
    },
  });
}
