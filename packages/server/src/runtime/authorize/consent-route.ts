import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { CSRF_FIELD, csrfValid } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { openInteraction } from '../interaction.js';
import { currentSession } from '../session.js';
import { errorPage } from './error-page.js';
import { runAuthorization } from './flow.js';
import { PageError } from './request.js';

/**
 * `POST /runtime/oauth2/consent.idp`: the answer of the consent page (`consent=allow|deny`), for the session that
 * was shown the page. The authorization request goes on: allow records the consent, deny answers access_denied.
 */
export function consentRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.consent, async (c) => {
    const form = await readForm(c).catch(() => undefined);
    const interaction = openInteraction(ctx.box, form?.get('interaction') ?? undefined);
    if (!form || !interaction || interaction.kind !== 'authorize') {
      return errorPage(ctx, c, new PageError('invalid_request', 'the sign-in has expired'), undefined);
    }
    const session = await currentSession(ctx, c);
    const bound = [interaction.id, session?.id ?? ''];
    if (!session || !(await csrfValid(ctx, c, 'consent', bound, form.get(CSRF_FIELD) ?? undefined))) {
      return errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
        undefined,
      );
    }
    const answer = form.get('consent');
    if (answer !== 'allow' && answer !== 'deny') {
      return errorPage(ctx, c, new PageError('invalid_request', 'consent must be allow or deny'), undefined);
    }
    return runAuthorization(ctx, c, new URLSearchParams(interaction.params ?? []), {
      session,
      authenticatedSession: interaction.authenticatedSession,
      consent: answer,
    });
  });
  return app;
}
