/**
 * A small user agent for the hosted pages without a browser: keeps cookies, follows redirects on the server's own
 * origin, and fills in the pages' forms (they work without JavaScript). Browser tests drive the same pages in
 * Chromium.
 */
export interface Page {
  status: number;
  url: string;
  headers: Headers;
  html: string;
}

export interface Form {
  action: string;
  method: string;
  fields: Record<string, string>;
}

/** Where a navigation ended: a page of the server, or a redirect leaving its origin (the client's address). */
export type Outcome = { page: Page; left?: undefined } | { left: URL; page?: undefined };

/** The text of an HTML attribute value or text as the browser reads it. */
export const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export class Agent {
  readonly cookies = new Map<string, string>();

  /** `follow`: other origins whose redirects and pages the agent goes through too (an upstream provider). */
  constructor(
    readonly origin: string,
    readonly follow: readonly string[] = [],
  ) {}

  async navigate(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Outcome> {
    let target = new URL(url, this.origin);
    let method = init.method ?? (init.form ? 'POST' : 'GET');
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    for (let hops = 0; hops < 10; hops++) {
      const known = [this.origin, ...this.follow].map((o) => new URL(o).origin);
      if (!known.includes(target.origin)) return { left: target };
      const headers: Record<string, string> = { 'accept-language': 'en' };
      if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetch(target, { method, headers, body, redirect: 'manual' });
      this.keepCookies(response.headers);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        target = new URL(location, target);
        method = 'GET';
        body = undefined;
        continue;
      }
      return {
        page: {
          status: response.status,
          url: target.toString(),
          headers: response.headers,
          html: await response.text(),
        },
      };
    }
    throw new Error('too many redirects');
  }

  private keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Submits the page's form (the first, or the one holding `button`), with `values` over its fields. */
  submit(page: Page, values: Record<string, string>, button?: { name: string; value: string }): Promise<Outcome> {
    const form = formOf(page, button);
    const fields = { ...form.fields, ...values, ...(button ? { [button.name]: button.value } : {}) };
    return this.navigate(new URL(form.action, page.url).toString(), { method: form.method, form: fields });
  }
}

/** The page's forms with their fields (hidden and text inputs). */
export function formsOf(page: Page): Form[] {
  const forms: Form[] = [];
  for (const match of page.html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attrs = match[1];
    const action = decode(/action="([^"]*)"/.exec(attrs)?.[1] ?? '');
    const method = (/method="([^"]*)"/.exec(attrs)?.[1] ?? 'get').toUpperCase();
    const fields: Record<string, string> = {};
    for (const input of match[2].matchAll(/<input\b([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1])?.[1];
      if (name === undefined) continue;
      fields[decode(name)] = decode(/value="([^"]*)"/.exec(input[1])?.[1] ?? '');
    }
    forms.push({ action, method, fields });
  }
  return forms;
}

function formOf(page: Page, button?: { name: string; value: string }): Form {
  const forms = formsOf(page);
  const index = button
    ? [...page.html.matchAll(/<form\b[\s\S]*?<\/form>/g)].findIndex((m) =>
        m[0].includes(`name="${button.name}" value="${button.value}"`),
      )
    : 0;
  const form = forms[index];
  if (!form)
    throw new Error(`no form${button ? ` with ${button.name}=${button.value}` : ''} on ${page.url}:\n${page.html}`);
  return form;
}

/** The page's visible error message, if any. */
export function alertOf(page: Page): string | undefined {
  const match = /<p class="message error" role="alert">([\s\S]*?)<\/p>/.exec(page.html);
  return match ? decode(match[1]) : undefined;
}

/**
 * Opens the authorization URL and signs in on the login page (and answers a consent page with `consent`); returns
 * the address the browser is sent back to.
 */
export async function signIn(
  agent: Agent,
  authorizationUrl: string | URL,
  userName: string,
  password: string,
  consent?: 'allow' | 'deny',
): Promise<URL> {
  let outcome = await agent.navigate(authorizationUrl.toString());
  if (outcome.page && /name="password"/.test(outcome.page.html)) {
    outcome = await agent.submit(outcome.page, { username: userName, password });
  }
  if (outcome.page && /name="consent"/.test(outcome.page.html) && consent) {
    outcome = await agent.submit(outcome.page, {}, { name: 'consent', value: consent });
  }
  if (outcome.left) return outcome.left;
  throw new Error(
    `the sign-in did not return to the client: ${outcome.page.status} ${outcome.page.url}\n${outcome.page.html}`,
  );
}
