import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

const styles = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2430;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:1rem 0 .3rem;font-weight:600}
input[type=password]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #9aa3b0;border-radius:4px;font-size:1rem}
button{margin-top:1.4rem;padding:.6rem 1.2rem;border:0;border-radius:4px;background:#1f5fbf;color:#fff;font-size:1rem;cursor:pointer}
button.danger{background:#b3261e}
.error{background:#fdecea;border:1px solid #f5c2c0;padding:.7rem;border-radius:4px}
.error ul{margin:.3rem 0 0;padding-left:1.2rem}
`;

/** A fresh nonce for the page's one inline style. */
export const newNonce = () => randomBytes(16).toString('base64');

/**
 * Security headers of every self-service page: a CSP that allows nothing but the page's own styled markup and
 * posting forms back to this origin; no framing, no sniffing, no referrer (the link's token is in the address),
 * no caching.
 */
export function setPageHeaders(c: Context, nonce: string): void {
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/** The small shared layout of the self-service pages. Every interpolated value is HTML-escaped. */
export function page(title: string, content: Markup, nonce: string): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style nonce="${nonce}">${raw(styles)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${content}
</main>
</body>
</html>`;
}

/** A list of problems, shown above a form. */
export function problems(messages: readonly string[]): Markup | '' {
  if (messages.length === 0) return '';
  return html`<div class="error" role="alert">${
    messages.length === 1 ? messages[0] : html`<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>`
  }</div>`;
}
