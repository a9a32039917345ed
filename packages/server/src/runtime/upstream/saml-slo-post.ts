import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { errorPage } from '../authorize/error-page.js';
import { PageError } from '../authorize/request.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { frontchannelLogoutOf } from '../frontchannel-logout.js';
import { logUpstreamError } from '../oauth-log.js';
import { currentSession, endSession } from '../session.js';
import { readFederationForm } from './federation-form.js';
import { UpstreamError } from './provider.js';
import { answerLogoutRequest } from './saml-logout-answer.js';
import { type LogoutResponseCheck, logoutAnswered } from './saml-logout-answered.js';
import { type IdpLogoutRequest, LogoutRequestRefused, requestNamesSignIn } from './saml-logout-request.js';
import { readPostLogoutRequest, readPostLogoutResponse } from './saml-post-logout.js';
import { samlIdentityProvider, samlServiceProvider } from './saml-provider.js';
import { sessionUpstream } from './upstream-session.js';

/** An identity provider's LogoutRequest verified at the post, sealed on its way to the `GET` that carries it out. */
interface VerifiedLogoutRequest {
  kind: 'saml-logout-request';
  connectionId: string;
  request: IdpLogoutRequest;
  expiresAt: number;
}

export const logoutRequestRefused = () => new PageError('invalid_request', 'the logout request does not verify');

/**
 * `POST /runtime/saml2/slo.idp`: the single logout service (HTTP-POST binding). The identity provider's post is
 * cross-site, so the browser's SameSite cookies are missing from it, as they are at the ACS: a LogoutRequest is
 * verified here (event 4111 and a 400 page when it does not verify, nothing ended) and the browser is sent on with it
 * sealed to the `GET` that follows, which has the browser's session (`verifiedLogoutRequest`). A LogoutResponse needs
 * no cookie: the local session ended before the browser left, and the logout finishes here as by HTTP-Redirect.
 */
export async function samlSloPost(ctx: AppContext, c: Context): Promise<Response> {
  const form = (await readFederationForm(c)) ?? new URLSearchParams();
  if (form.has('SAMLRequest')) return postedLogoutRequest(ctx, c, form);
  const check: LogoutResponseCheck = (idp, sp, sent) => readPostLogoutResponse(idp, sp, sent, form);
  return logoutAnswered(ctx, c, form.get('RelayState'), check, 303);
}

async function postedLogoutRequest(ctx: AppContext, c: Context, form: URLSearchParams): Promise<Response> {
  let verified: Awaited<ReturnType<typeof readPostLogoutRequest>>;
  try {
    verified = await readPostLogoutRequest(ctx, await samlServiceProvider(ctx), form, undefined);
  } catch (error) {
    if (!(error instanceof LogoutRequestRefused)) throw error;
    logUpstreamError(ctx, c, { error: error.error, description: error.description, connection: error.connection });
    return errorPage(ctx, c, logoutRequestRefused(), undefined);
  }
  const kept: VerifiedLogoutRequest = {
    kind: 'saml-logout-request',
    connectionId: verified.idp.connectionId,
    request: verified.request,
    expiresAt: Date.now() + runtimeDefaults.samlResultLifetime * 1000,
  };
  c.header('Cache-Control', 'no-store');
  const next = new URLSearchParams({ verified: ctx.box.seal(JSON.stringify(kept)) });
  return c.redirect(`${runtimePaths.samlSlo}?${next}`, 303);
}

function openVerified(ctx: AppContext, sealed: string): VerifiedLogoutRequest | undefined {
  if (sealed.length > 16_384) return undefined;
  try {
    const value = JSON.parse(ctx.box.open(sealed)) as VerifiedLogoutRequest;
    return value.kind === 'saml-logout-request' && value.expiresAt > Date.now() ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /runtime/saml2/slo.idp?verified=…`: a LogoutRequest verified at the post, carried out as one received by
 * HTTP-Redirect: the browser's session ends when it was signed in through that connection with the request's NameID
 * (and one of its SessionIndex values, when it names any), and the LogoutResponse goes back by the binding of the
 * provider's single logout service.
 */
export async function verifiedLogoutRequest(ctx: AppContext, c: Context, sealed: string): Promise<Response> {
  const kept = openVerified(ctx, sealed);
  if (!kept) return errorPage(ctx, c, logoutRequestRefused(), undefined);
  let idp: Awaited<ReturnType<typeof samlIdentityProvider>>;
  try {
    idp = await samlIdentityProvider(ctx, kept.connectionId);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const refused = { error: 'invalid_request', description: error.description, connection: kept.connectionId };
    logUpstreamError(ctx, c, refused);
    return errorPage(ctx, c, logoutRequestRefused(), undefined);
  }
  const session = await currentSession(ctx, c);
  const signIn = session ? await sessionUpstream(ctx, session.id) : undefined;
  const ended = requestNamesSignIn(idp, kept.request, signIn) ? await endSession(ctx, c) : undefined;
  const frontchannel = await frontchannelLogoutOf(ctx, ended);
  return answerLogoutRequest(ctx, c, idp, await samlServiceProvider(ctx), kept.request, frontchannel);
}
