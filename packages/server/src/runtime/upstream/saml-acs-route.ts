import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppContext } from '../../context.js';
import { recordUsedAssertion } from '../../queries/used-assertions.js';
import { errorPage, runAuthorization } from '../authorize/flow.js';
import { PageError } from '../authorize/request.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { OAuthError } from '../oauth-errors.js';
import { logUpstreamError } from '../oauth-log.js';
import { continueUpstreamSignIn } from './continue-sign-in.js';
import { UpstreamError } from './provider.js';
import { type SamlIdentityProvider, samlIdentityProvider, samlServiceProvider } from './saml-provider.js';
import { readSamlResponse, type SamlIdentity } from './saml-response.js';
import type { SamlState } from './saml-start.js';

/** A verified SAML response, sealed on its way from the ACS to the continuation in the browser that started it. */
interface SamlResult {
  kind: 'saml-result';
  params: [string, string][];
  connection: string;
  email?: string;
  acr?: string;
  browser: string;
  expiresAt: number;
}

/** A sealed value of ours, or undefined when it was not sealed by this service, has expired or is not of `kind`. */
function open<T extends { kind: string; expiresAt: number }>(
  ctx: AppContext,
  sealed: string | null | undefined,
  kind: T['kind'],
): T | undefined {
  if (!sealed || sealed.length > 16_384) return undefined;
  try {
    const value = JSON.parse(ctx.box.open(sealed)) as T;
    return value.kind === kind && value.expiresAt > Date.now() ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The posted form, or undefined when it is not a form or is larger than a SAML response needs. */
async function readPost(c: Context): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header('content-type') ?? '')) return undefined;
  if (Number(c.req.header('content-length') ?? 0) > runtimeDefaults.maxSamlFormBytes) return undefined;
  const body = await c.req.text();
  return body.length > runtimeDefaults.maxSamlFormBytes ? undefined : new URLSearchParams(body);
}

/**
 * Records the verified assertion as used, until it could no longer be accepted (its latest NotOnOrAfter and the
 * allowed clock skew): a bearer assertion is accepted once (SAML 2.0 Profiles §4.1.4.5). Throws UpstreamError when
 * it was accepted before.
 */
async function acceptOnce(ctx: AppContext, idp: SamlIdentityProvider, identity: SamlIdentity): Promise<void> {
  const recorded = await recordUsedAssertion(ctx.db, {
    connectionId: idp.connectionId,
    assertionId: identity.assertionId,
    expiresAt: new Date(identity.notOnOrAfter.getTime() + runtimeDefaults.clockSkew * 1000),
  });
  if (!recorded) {
    throw new UpstreamError('invalid_response', `the assertion ${identity.assertionId} was accepted before`);
  }
}

const notStartedHere = () => new PageError('invalid_request', 'the sign-in has expired or was not started here');

/**
 * The assertion consumer service of upstream SAML 2.0 sign-in (HTTP-POST binding).
 * `POST`: open the sealed RelayState, verify the response and record its assertion as used (event 4111 and an error
 * to the client when it does not verify, was accepted before or reports an error status), and send the browser on
 * with the result sealed. The identity provider's post is cross-site, so the browser's SameSite cookies are missing
 * from it: the result is checked against the browser that started the sign-in at the `GET` that follows, which then
 * matches the local user by e-mail and goes on with the authorization request as the OpenID Connect callback does.
 */
export function samlAcsRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.samlAcs, async (c) => {
    const form = await readPost(c);
    const state = open<SamlState>(ctx, form?.get('RelayState'), 'saml-relay-state');
    if (!form || !state) return errorPage(ctx, c, notStartedHere(), undefined);
    const params = new URLSearchParams(state.params);
    let connection = state.connectionId;
    try {
      const idp = await samlIdentityProvider(ctx, state.connectionId);
      connection = idp.name;
      const posted = form.get('SAMLResponse');
      if (!posted) throw new UpstreamError('invalid_response', 'the post holds no SAMLResponse');
      const identity = await readSamlResponse(idp, samlServiceProvider(ctx.baseUrl()), state.request, posted);
      await acceptOnce(ctx, idp, identity);
      const result: SamlResult = {
        kind: 'saml-result',
        params: state.params,
        connection: idp.name,
        ...(identity.email ? { email: identity.email } : {}),
        ...(identity.acr ? { acr: identity.acr } : {}),
        browser: state.browser,
        expiresAt: Date.now() + runtimeDefaults.samlResultLifetime * 1000,
      };
      c.header('Cache-Control', 'no-store');
      const next = new URLSearchParams({ result: ctx.box.seal(JSON.stringify(result)) });
      return c.redirect(`${runtimePaths.samlAcs}?${next}`, 303);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      logUpstreamError(ctx, c, { error: error.error, description: error.description, connection });
      const code = error.error === 'NoPassive' ? 'login_required' : 'access_denied';
      const failure = new OAuthError(code, 400, `the identity provider answered ${error.error}`);
      return runAuthorization(ctx, c, params, { failure });
    }
  });
  app.get(runtimePaths.samlAcs, async (c) => {
    const result = open<SamlResult>(ctx, c.req.query('result'), 'saml-result');
    const browser = getCookie(c, runtimeDefaults.browserCookie);
    if (!result || !browser || browser !== result.browser) return errorPage(ctx, c, notStartedHere(), undefined);
    return continueUpstreamSignIn(ctx, c, new URLSearchParams(result.params), {
      email: result.email,
      acr: result.acr,
      connection: result.connection,
    });
  });
  return app;
}
