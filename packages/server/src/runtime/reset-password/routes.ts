import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext } from '../../context.js';
import type { AppEnv } from '../../http/env.js';
import type { ActionKind } from '../../queries/action-tokens.js';
import { actionLinkPaths, actionLinkService } from '../../services/action-links.js';
import { checkPasswordPolicy } from '../../services/password-policy.js';
import { notifySessionsEnded } from '../backchannel-logout.js';
import { CSRF_FIELD, csrfValid, issueCsrf } from './csrf.js';
import { type Markup, newNonce, setPageHeaders } from './layout.js';
import {
  expiredFormPage,
  type FormState,
  invalidLinkPage,
  MAX_PASSWORD_LENGTH,
  offboardedPage,
  offboardForm,
  passwordSetPage,
  setPasswordForm,
} from './views.js';

type Status = 200 | 400 | 403;

const field = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The pages that mailed one-time links open: setting a new password (`/runtime/ResetPassword/SetPassword`) and
 * confirming an offboarding (`/runtime/UserSelfService/Offboard`). Opening a page does not use its link; posting
 * its form (CSRF-checked by a double-submit cookie) does. Server-rendered, no JavaScript.
 */
export function selfServicePageRoutes(ctx: AppContext): Hono<AppEnv> {
  const links = actionLinkService(ctx.db, ctx.baseUrl, { sessionsEnded: (ended) => notifySessionsEnded(ctx, ended) });
  const app = new Hono<AppEnv>();
  const secureCookie = () => ctx.baseUrl().startsWith('https:');

  const render = (c: Context<AppEnv>, view: (nonce: string) => Markup, status: Status = 200) => {
    const nonce = newNonce();
    setPageHeaders(c, nonce);
    return c.html(view(nonce), status);
  };

  /** GET: the form of a usable link, or the invalid-link page. */
  const showForm = (kind: ActionKind, form: (s: FormState) => Markup) => async (c: Context<AppEnv>) => {
    const token = c.req.query('token') ?? '';
    const user = await links.userOf(kind, token);
    if (!user) return render(c, invalidLinkPage, 400);
    const csrf = issueCsrf(c, secureCookie());
    return render(c, (nonce) => form({ token, csrf, nonce, userName: user.userName }));
  };

  /** POST: the CSRF check and the link's user, before the kind's own handling. */
  async function readForm(c: Context<AppEnv>, kind: ActionKind) {
    const form = (await c.req.parseBody()) as Record<string, unknown>;
    const token = field(form, 'token');
    const csrf = field(form, CSRF_FIELD);
    if (!csrfValid(c, csrf)) return { response: render(c, expiredFormPage, 403) };
    const user = await links.userOf(kind, token);
    if (!user) return { response: render(c, invalidLinkPage, 400) };
    return { form, token, csrf, user };
  }

  app.use('/runtime/ResetPassword/SetPassword', bodyLimit({ maxSize: 64 * 1024 }));
  app.use('/runtime/UserSelfService/Offboard', bodyLimit({ maxSize: 64 * 1024 }));

  app.get(actionLinkPaths.reset, showForm('reset', setPasswordForm));
  app.post(actionLinkPaths.reset, async (c) => {
    const read = await readForm(c, 'reset');
    if ('response' in read) return read.response;
    const { form, token, csrf, user } = read;
    const password = field(form, 'password');
    const errors =
      password !== field(form, 'confirmPassword')
        ? ['The two passwords differ.']
        : password.length > MAX_PASSWORD_LENGTH
          ? [`The password must be at most ${MAX_PASSWORD_LENGTH} characters.`]
          : await checkPasswordPolicy(ctx.db, password);
    if (errors.length > 0) {
      return render(c, (nonce) => setPasswordForm({ token, csrf, nonce, userName: user.userName, errors }), 400);
    }
    if (!(await links.setPassword(token, password, c.get('requestId')))) return render(c, invalidLinkPage, 400);
    return render(c, passwordSetPage);
  });

  app.get(actionLinkPaths.offboard, showForm('offboard', offboardForm));
  app.post(actionLinkPaths.offboard, async (c) => {
    const read = await readForm(c, 'offboard');
    if ('response' in read) return read.response;
    const { form, token, csrf, user } = read;
    if (field(form, 'confirm') !== 'yes') {
      const errors = ['Press the button to confirm.'];
      return render(c, (nonce) => offboardForm({ token, csrf, nonce, userName: user.userName, errors }), 400);
    }
    if (!(await links.offboard(token, c.get('requestId')))) return render(c, invalidLinkPage, 400);
    return render(c, offboardedPage);
  });

  return app;
}
