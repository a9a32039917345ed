import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppContext } from '../../context.js';
import { recordUsedAssertion } from '../../queries/used-assertions.js';
import { errorPage } from '../authorize/error-page.js';
import { runAuthorization } from '../authorize/flow.js';
import { PageError } from '../authorize/request.js';
import { runtimeDefaults } from '../defaults.js';
import { OAuthError } from '../oauth-errors.js';
import { logUpstreamError } from '../oauth-log.js';
import { continueUpstreamSignIn } from './continue-sign-in.js';
import type { FederatedIdentity } from './federated-identity.js';
import { readFederationForm } from './federation-form.js';
import { UpstreamError } from './provider.js';
import type { UpstreamSignIn } from './upstream-session.js';

/** What a sign-in sent upstream carries sealed (RelayState, wctx): the request to go on with, and the checks. */
export interface SentSignIn {
  kind: string;
  params: [string, string][];
  connectionId: string;
  /** The browser binding of the browser that started it (login CSRF). */
  browser: string;
  expiresAt: number;
}

/** A verified assertion, sealed on its way from the reply address to the continuation in the browser. */
interface VerifiedSignIn {
  kind: string;
  params: [string, string][];
  connection: string;
  email?: string;
  acr?: string;
  /** The sign-in at the provider, for the session to remember. */
  upstream: UpstreamSignIn;
  browser: string;
  expiresAt: number;
}

/** A federation protocol's reply address: where its answer is posted, and how it is verified. */
export interface FederationReply<S extends SentSignIn, P extends { connectionId: string; name: string }> {
  path: string;
  /** The protocol, as the session remembers its upstream sign-in. */
  protocol: 'saml' | 'wsfed';
  /** The form field that carries the sealed sign-in (RelayState, wctx), and the sealed value's kind. */
  stateField: string;
  stateKind: S['kind'];
  /** The sealed sign-in the posted field stands for, when it carries a reference (default: the field itself). */
  sealedState?(ctx: AppContext, posted: string): Promise<string | undefined>;
  /** The connection's provider, ready to verify with; UpstreamError when it cannot be used. */
  provider(ctx: AppContext, connectionId: string): Promise<P>;
  /** Verifies the posted answer; UpstreamError when it does not verify or reports a failure. */
  verify(ctx: AppContext, provider: P, form: URLSearchParams, sent: S): Promise<FederatedIdentity>;
  /** The OAuth error the client gets for a provider's error (default access_denied). */
  clientError?(error: UpstreamError): string;
}

/** A sealed value of ours, or undefined when it was not sealed by this service, has expired or is not of `kind`. */
function openSealed<T extends { kind: string; expiresAt: number }>(
  ctx: AppContext,
  sealed: string | null | undefined,
  kind: string,
): T | undefined {
  if (!sealed || sealed.length > 16_384) return undefined;
  try {
    const value = JSON.parse(ctx.box.open(sealed)) as T;
    return value.kind === kind && value.expiresAt > Date.now() ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records the verified assertion as used, until it could no longer be accepted (its latest NotOnOrAfter and the
 * allowed clock skew): a bearer assertion is accepted once (SAML 2.0 Profiles §4.1.4.5). Throws UpstreamError when
 * it was accepted before.
 */
async function acceptOnce(ctx: AppContext, connectionId: string, identity: FederatedIdentity): Promise<void> {
  const recorded = await recordUsedAssertion(ctx.db, {
    connectionId,
    assertionId: identity.assertionId,
    expiresAt: new Date(identity.notOnOrAfter.getTime() + runtimeDefaults.clockSkew * 1000),
  });
  if (!recorded) {
    throw new UpstreamError('invalid_response', `the assertion ${identity.assertionId} was accepted before`);
  }
}

/** What logout at the provider will need of the verified assertion: its NameID and SessionIndex. */
function upstreamSignIn(
  protocol: UpstreamSignIn['protocol'],
  connectionId: string,
  identity: FederatedIdentity,
): UpstreamSignIn {
  return {
    connectionId,
    protocol,
    nameId: identity.nameId,
    ...(identity.nameIdFormat ? { nameIdFormat: identity.nameIdFormat } : {}),
    ...(identity.sessionIndex ? { sessionIndex: identity.sessionIndex } : {}),
  };
}

const notStartedHere = () => new PageError('invalid_request', 'the sign-in has expired or was not started here');

/**
 * The reply address of a federation protocol (SAML 2.0 ACS, WS-Federation reply).
 * `POST`: open the sealed sign-in, verify the answer and record its assertion as used (event 4111 and an error to
 * the client when it does not verify, was accepted before or reports a failure), and send the browser on with the
 * result sealed. The provider's post is cross-site, so the browser's SameSite cookies are missing from it: the
 * result is checked against the browser that started the sign-in at the `GET` that follows, which then matches the
 * local user by e-mail and goes on with the authorization request as the OpenID Connect callback does.
 */
export function federationReplyRoute<S extends SentSignIn, P extends { connectionId: string; name: string }>(
  ctx: AppContext,
  reply: FederationReply<S, P>,
): Hono {
  const resultKind = `${reply.stateKind}-result`;
  const app = new Hono();
  app.post(reply.path, async (c) => {
    const form = await readFederationForm(c);
    const posted = form?.get(reply.stateField);
    const sealed = posted && reply.sealedState ? await reply.sealedState(ctx, posted) : posted;
    const sent = openSealed<S>(ctx, sealed, reply.stateKind);
    if (!form || !sent) return errorPage(ctx, c, notStartedHere(), undefined);
    let connection = sent.connectionId;
    try {
      const provider = await reply.provider(ctx, sent.connectionId);
      connection = provider.name;
      const identity = await reply.verify(ctx, provider, form, sent);
      await acceptOnce(ctx, provider.connectionId, identity);
      const result: VerifiedSignIn = {
        kind: resultKind,
        params: sent.params,
        connection: provider.name,
        ...(identity.email ? { email: identity.email } : {}),
        ...(identity.acr ? { acr: identity.acr } : {}),
        upstream: upstreamSignIn(reply.protocol, provider.connectionId, identity),
        browser: sent.browser,
        expiresAt: Date.now() + runtimeDefaults.samlResultLifetime * 1000,
      };
      c.header('Cache-Control', 'no-store');
      const next = new URLSearchParams({ result: ctx.box.seal(JSON.stringify(result)) });
      return c.redirect(`${reply.path}?${next}`, 303);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      logUpstreamError(ctx, c, { error: error.error, description: error.description, connection });
      const code = reply.clientError?.(error) ?? 'access_denied';
      const failure = new OAuthError(code, 400, `the identity provider answered ${error.error}`);
      return runAuthorization(ctx, c, new URLSearchParams(sent.params), { failure });
    }
  });
  app.get(reply.path, async (c) => {
    const result = openSealed<VerifiedSignIn>(ctx, c.req.query('result'), resultKind);
    const browser = getCookie(c, runtimeDefaults.browserCookie);
    if (!result || !browser || browser !== result.browser) return errorPage(ctx, c, notStartedHere(), undefined);
    return continueUpstreamSignIn(ctx, c, new URLSearchParams(result.params), {
      email: result.email,
      acr: result.acr,
      connection: result.connection,
      upstream: result.upstream,
    });
  });
  return app;
}
