import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { findRelayState, keepRelayState } from '../../queries/saml-relay-states.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { FormPostPage } from '../pages/error.js';
import { scriptNonce, sendPage, textsFor } from '../pages/render.js';

/** A SAML message to send by HTTP-POST: the endpoint and the form's fields (SAMLRequest or SAMLResponse, RelayState). */
export interface SamlPostForm {
  action: string;
  fields: Record<string, string>;
}

interface KeptForm extends SamlPostForm {
  kind: 'saml-post-form';
  expiresAt: number;
}

/**
 * Sends a SAML message by the HTTP-POST binding (SAML 2.0 Bindings §3.5.3): a page whose form posts it to the
 * identity provider's endpoint, submitted by its one script or, with scripts off, by its button. The page's CSP lets
 * forms reach that endpoint's origin; it is never cached.
 */
export async function sendSamlPostForm(
  ctx: AppContext,
  c: Context,
  form: SamlPostForm,
  uiLocales?: string,
): Promise<Response> {
  const nonce = scriptNonce();
  const t = await textsFor(ctx, c, uiLocales);
  const page = FormPostPage({ t, action: form.action, fields: form.fields, nonce, intro: 'formPost.introProvider' });
  return sendPage(ctx, c, page, { formTargets: [form.action], scriptNonce: nonce });
}

/**
 * Keeps a form to send, sealed under a new short id, for as long as a result on its way through the browser lasts;
 * returns the address of this service's single logout service that sends it (`?send=<id>`). For a message that must
 * leave by a redirect (the end of a logout here) while its binding is HTTP-POST.
 */
export async function keepPostForm(ctx: AppContext, form: SamlPostForm): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  const kept: KeptForm = {
    kind: 'saml-post-form',
    ...form,
    expiresAt: Date.now() + runtimeDefaults.samlResultLifetime * 1000,
  };
  await keepRelayState(ctx.db, id, ctx.box.seal(JSON.stringify(kept)), new Date(kept.expiresAt));
  return `${ctx.baseUrl()}${runtimePaths.samlSlo}?${new URLSearchParams({ send: id })}`;
}

/** The form kept under the id, unless unknown or expired. */
export async function keptPostForm(ctx: AppContext, id: string): Promise<SamlPostForm | undefined> {
  const sealed = id.length <= 80 ? await findRelayState(ctx.db, id) : undefined;
  if (!sealed) return undefined;
  try {
    const kept = JSON.parse(ctx.box.open(sealed)) as Partial<KeptForm>;
    if (kept.kind !== 'saml-post-form' || typeof kept.expiresAt !== 'number' || kept.expiresAt <= Date.now()) {
      return undefined;
    }
    return { action: String(kept.action), fields: { ...kept.fields } };
  } catch {
    return undefined;
  }
}
