import type { Child } from 'hono/jsx';
import { runtimePaths } from '../defaults.js';
import type { Language } from './texts.js';

export interface LayoutProps {
  lang: Language;
  title: string;
  /** Custom contents (administrators' markup) shown above and below the page's own content. */
  header?: string | undefined;
  footer?: string | undefined;
  /** Elements added to the head (a meta refresh). */
  head?: Child;
  children?: Child;
}

/** The frame of every page: no script, one stylesheet, the custom header and footer. */
export function Layout(props: LayoutProps) {
  return (
    <html lang={props.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={runtimePaths.stylesheet} />
        {props.head}
      </head>
      <body>
        <main class="box">
          {props.header ? (
            <div class="custom custom-header" dangerouslySetInnerHTML={{ __html: props.header }} />
          ) : null}
          {props.children}
          {props.footer ? (
            <div class="custom custom-footer" dangerouslySetInnerHTML={{ __html: props.footer }} />
          ) : null}
        </main>
      </body>
    </html>
  );
}

/** Hidden fields of a form. */
export function Hidden(props: { fields: Record<string, string | undefined> }) {
  return (
    <>
      {Object.entries(props.fields)
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
    </>
  );
}

/** A message box; `role="alert"` for errors. */
export function Message(props: { kind: 'error' | 'info'; text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p class={`message ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.text}
    </p>
  );
}

export const stylesheet = `
:root { color-scheme: light dark; --accent: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f3f5f8; color: #1b1f24; }
@media (prefers-color-scheme: dark) { body { background: #16191d; color: #e6e8eb; } .box { background: #22262b; } }
.box { max-width: 26rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px;
  box-shadow: 0 1px 4px rgba(0,0,0,.15); }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
label { display: block; margin: .8rem 0 .2rem; font-weight: 600; }
input[type=text], input[type=password] { width: 100%; padding: .55rem; font: inherit; border: 1px solid #8a939e;
  border-radius: 4px; }
button { margin-top: 1.2rem; padding: .6rem 1.2rem; font: inherit; border: 0; border-radius: 4px; cursor: pointer;
  background: var(--accent); color: #fff; }
button.secondary { background: #6b7480; }
.actions { display: flex; gap: .6rem; flex-wrap: wrap; }
.message { padding: .6rem .8rem; border-radius: 4px; }
.message.error { background: #fde8e8; color: #8a1c1c; }
.message.info { background: #e8f0fd; color: #1c3f8a; }
.links { margin-top: 1.2rem; }
ul.scopes { padding-left: 1.2rem; }
code.user-code { font-size: 1.3rem; letter-spacing: .1em; }
`;
