import { describe, expect, it } from 'vitest';
import { LoggedOutPage } from './logout.js';
import { pageText } from './render.js';
import { SigningOutPage } from './signing-out.js';

const settings = { contents: new Map() };
const en = pageText('en', settings);
const html = async (page: unknown) => String(await page);

describe('SigningOutPage', () => {
  it('holds a hidden iframe per address, a meta refresh and a Continue link to where the logout goes on', async () => {
    const page = await html(
      SigningOutPage({
        t: en,
        frames: ['https://a.example/fc?iss=x&sid=1', 'https://b.example:8443/logout'],
        next: 'https://a.example/bye?state=s&x=1',
        delay: 2,
      }),
    );
    expect(page).toContain('<title>Sign out</title>');
    expect(page).toContain('<p>Signing you out of the applications you used. One moment…</p>');
    const attributes = 'title="Signing out of an application" hidden="" width="0" height="0"';
    expect([...page.matchAll(/<iframe[^>]*>/g)].map((m) => m[0])).toEqual([
      `<iframe src="https://a.example/fc?iss=x&amp;sid=1" ${attributes}>`,
      `<iframe src="https://b.example:8443/logout" ${attributes}>`,
    ]);
    const head = page.slice(page.indexOf('<head>'), page.indexOf('</head>'));
    expect(head).toContain('<meta http-equiv="refresh" content="2;url=https://a.example/bye?state=s&amp;x=1"/>');
    expect(page).toContain('<a href="https://a.example/bye?state=s&amp;x=1">Continue</a>');
    expect(page).not.toContain('<script');
  });

  it('speaks Dutch on a Dutch page', async () => {
    const page = await html(
      SigningOutPage({
        t: pageText('nl', settings),
        frames: ['https://a.example/fc'],
        next: 'https://a.example/',
        delay: 3,
      }),
    );
    expect(page).toContain('<h1>Afmelden</h1>');
    expect(page).toContain('U wordt afgemeld bij de toepassingen die u gebruikte. Een ogenblik…');
    expect(page).toContain('>Verder</a>');
    expect(page).toContain('content="3;url=https://a.example/"');
  });

  it('escapes a hostile-looking address in the iframe, the meta refresh and the link', async () => {
    const hostile = 'https://a.example/fc?x="><script>alert(1)</script>&y=\'';
    const page = await html(SigningOutPage({ t: en, frames: [hostile], next: hostile, delay: 2 }));
    expect(page).not.toContain('<script>');
    expect(page.match(/<iframe/g)).toHaveLength(1);
    const escaped = 'https://a.example/fc?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;y=&#39;';
    expect(page).toContain(`<iframe src="${escaped}" title=`);
    expect(page).toContain(`content="2;url=${escaped}"`);
    expect(page).toContain(`<a href="${escaped}">`);
  });
});

describe('LoggedOutPage', () => {
  it('loads the front-channel addresses in hidden iframes when given, and has no iframe otherwise', async () => {
    const withFrames = await html(LoggedOutPage({ t: en, frames: ['https://a.example/fc?sid=1&iss=x'] }));
    expect(withFrames).toContain('<p>You are signed out.</p>');
    expect(withFrames).toContain(
      '<iframe src="https://a.example/fc?sid=1&amp;iss=x" title="Signing out of an application" hidden=""',
    );
    expect(withFrames).not.toContain('http-equiv');
    const without = await html(LoggedOutPage({ t: en }));
    expect(without).not.toContain('<iframe');
    expect(await html(LoggedOutPage({ t: en, frames: [] }))).toBe(without);
  });
});
