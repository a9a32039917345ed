import { html } from 'hono/html';
import { CSRF_FIELD } from './csrf.js';
import { type Markup, page, problems } from './layout.js';

export const MAX_PASSWORD_LENGTH = 1024;

export interface FormState {
  token: string;
  csrf: string;
  nonce: string;
  userName: string;
  errors?: readonly string[];
}

/** The set-password form: fields `password` and `confirmPassword`, the link's token and the CSRF value hidden. */
export function setPasswordForm(s: FormState): Markup {
  return page(
    'Set a new password',
    html`<p>Choose a new password for <strong>${s.userName}</strong>.</p>
${problems(s.errors ?? [])}
<form method="post" action="SetPassword">
<input type="hidden" name="token" value="${s.token}">
<input type="hidden" name="${CSRF_FIELD}" value="${s.csrf}">
<input type="text" name="username" value="${s.userName}" autocomplete="username" hidden>
<label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" required maxlength="${MAX_PASSWORD_LENGTH}">
<label for="confirmPassword">Repeat the new password</label>
<input type="password" id="confirmPassword" name="confirmPassword" autocomplete="new-password" required maxlength="${MAX_PASSWORD_LENGTH}">
<button type="submit">Set password</button>
</form>`,
    s.nonce,
  );
}

export const passwordSetPage = (nonce: string): Markup =>
  page('Your password is set', html`<p>Your new password is in effect. You can sign in with it now.</p>`, nonce);

/** The offboarding confirmation: one button named `confirm`. */
export function offboardForm(s: FormState): Markup {
  return page(
    'Close your account',
    html`<p>Confirm that the account <strong>${s.userName}</strong> is to be closed. You will be signed out everywhere
and cannot sign in with it any more.</p>
${problems(s.errors ?? [])}
<form method="post" action="Offboard">
<input type="hidden" name="token" value="${s.token}">
<input type="hidden" name="${CSRF_FIELD}" value="${s.csrf}">
<button type="submit" name="confirm" value="yes" class="danger">Close my account</button>
</form>`,
    s.nonce,
  );
}

export const offboardedPage = (nonce: string): Markup =>
  page('Your account is closed', html`<p>The account is closed and signed out everywhere.</p>`, nonce);

export const invalidLinkPage = (nonce: string): Markup =>
  page(
    'This link does not work',
    html`<div class="error" role="alert">The link is not valid: it may have expired or been used already.</div>
<p>Ask for a new link.</p>`,
    nonce,
  );

export const expiredFormPage = (nonce: string): Markup =>
  page(
    'The form has expired',
    html`<div class="error" role="alert">The form could not be accepted. Open the link from your e-mail again and
submit the form from there.</div>`,
    nonce,
  );
