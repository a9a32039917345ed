import { csrfToken } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { newInteraction, sealInteraction } from '../interaction.js';
import { ConsentPage } from '../pages/consent.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { BrowserSession } from '../session.js';
import type { FlowContext } from './flow.js';

/** The consent page of an authorization request, bound to the session and the (sealed) request. */
export async function showConsent(flow: FlowContext, session: BrowserSession): Promise<Response> {
  const { ctx, c, request, client, params } = flow;
  const interaction = newInteraction({
    kind: 'authorize',
    params: [...params],
    authenticatedSession: flow.state.authenticatedSession,
  });
  const t = await textsFor(ctx, c, request.uiLocales);
  const page = ConsentPage({
    t,
    clientName: client.name,
    userName: session.userName,
    scopes: request.scopes,
    action: runtimePaths.consent,
    hidden: { interaction: sealInteraction(ctx.box, interaction) },
    csrf: await csrfToken(ctx, c, 'consent', [interaction.id, session.id]),
  });
  return sendPage(ctx, c, page, { formTargets: [request.redirectUri] });
}
