import { type Context, Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { logUpstreamError } from '../oauth-log.js';
import { endUpstreamSignIns } from './end-upstream-sessions.js';
import { LogoutRequestRefused } from './saml-logout-request.js';
import { logoutResponseXml } from './saml-logout-xml.js';
import { readPostLogoutRequest } from './saml-post-logout.js';
import { signEnveloped } from './saml-post-message.js';
import type { SamlServiceProvider } from './saml-provider.js';
import { samlServiceProvider } from './saml-provider.js';
import { SoapFault, type SoapFaultCode, soapBodyMessage, soapEnvelope, soapFaultEnvelope } from './saml-soap.js';

/** SAML 2.0 Bindings §3.2.3.3: a SOAP answer is never cached. */
const soapHeaders = {
  'Content-Type': 'text/xml; charset=utf-8',
  'Cache-Control': 'no-cache, no-store',
  Pragma: 'no-cache',
};

/** The SOAP request's body: text/xml (SOAP 1.1), at most `maxSamlFormBytes`. Throws SoapFault. */
async function soapRequestOf(c: Context): Promise<string> {
  if (!/^text\/xml\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
    throw new SoapFault('Client', 'the request is not a SOAP 1.1 message (text/xml)');
  }
  const tooLarge = () => new SoapFault('Client', 'the request is too large');
  if (Number(c.req.header('content-length') ?? 0) > runtimeDefaults.maxSamlFormBytes) throw tooLarge();
  const body = await c.req.text();
  if (body.length > runtimeDefaults.maxSamlFormBytes) throw tooLarge();
  return body;
}

/**
 * This service's LogoutResponse (status Success) to the provider's LogoutRequest, signed with its credential
 * (enveloped XML signature). It goes back in the SOAP response, so it names no Destination.
 */
function logoutResponse(sp: SamlServiceProvider, inResponseTo: string): string {
  const xml = logoutResponseXml({ destination: '', issuer: sp.entityId, inResponseTo }).replace(' Destination=""', '');
  return signEnveloped(xml, 'LogoutResponse', sp.credential);
}

/**
 * `POST /runtime/saml2/slo-soap.idp`: the single logout service of the SOAP binding (SAML 2.0 Bindings §3.2), where
 * an identity provider ends sessions here server to server. The envelope's Body holds its LogoutRequest, verified as
 * one posted by HTTP-POST (saml-post-logout.ts: issuer an enabled Saml20 connection, enveloped XML signature by one of
 * its certificates, SHA-256 or stronger, no wrapping, NotOnOrAfter), its Destination, when it names one, this
 * address. Every live session here signed in through that connection with the request's NameID ends (only those with
 * one of its SessionIndex values, when it names any), and the clients those sessions signed in to that asked for
 * back-channel logout are told. The answer: a signed Success LogoutResponse in a SOAP envelope (also when no session
 * matched). A request that cannot be read or does not verify: a SOAP fault (HTTP 500, SOAP 1.1 §6.2; faultcode
 * Client, or VersionMismatch / MustUnderstand), event 4111, nothing ended.
 */
export function samlSloSoapRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.samlSloSoap, async (c) => {
    const fault = (code: SoapFaultCode, description: string, connection: string) => {
      logUpstreamError(ctx, c, { error: 'invalid_request', description, connection });
      return c.body(soapFaultEnvelope(code, description), 500, soapHeaders);
    };
    const sp = await samlServiceProvider(ctx);
    let verified: Awaited<ReturnType<typeof readPostLogoutRequest>>;
    try {
      const message = soapBodyMessage(await soapRequestOf(c), 'LogoutRequest');
      const form = new URLSearchParams({ SAMLRequest: Buffer.from(message, 'utf8').toString('base64') });
      const here = { ...sp, sloUrl: `${ctx.baseUrl()}${runtimePaths.samlSloSoap}` };
      verified = await readPostLogoutRequest(ctx, here, form, undefined, true);
    } catch (error) {
      if (error instanceof SoapFault) return fault(error.code, error.message, '');
      if (error instanceof LogoutRequestRefused) return fault('Client', error.description, error.connection);
      throw error;
    }
    const { idp, request } = verified;
    await endUpstreamSignIns(ctx, idp, { subject: request.nameId, sessions: request.sessionIndexes });
    return c.body(soapEnvelope(logoutResponse(sp, request.id)), 200, soapHeaders);
  });
  return app;
}
