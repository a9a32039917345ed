import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { AppContext } from '../../context.js';
import { runtimeDefaults } from '../defaults.js';
import { type RuntimeSettings, runtimeSettings } from '../settings.js';
import { chooseLanguage, type Language, type TextKey, text } from './texts.js';

/** The texts of one page in its language, with the custom contents that apply to it. */
export interface PageText {
  (key: TextKey, values?: Record<string, string>): string;
  lang: Language;
  /** The custom content of that name in the page's language (or one written for any language); else undefined. */
  custom(name: string): string | undefined;
}

export function pageText(language: Language, settings: Pick<RuntimeSettings, 'contents'>): PageText {
  const t = ((key: TextKey, values?: Record<string, string>) => text(language, key, values)) as PageText;
  t.lang = language;
  t.custom = (name) => {
    const found = settings.contents.get(name.toLowerCase());
    if (!found) return undefined;
    const code = found.languageCode?.toLowerCase().split('-')[0];
    return code === undefined || code === language ? found.content : undefined;
  };
  return t;
}

/** The page texts for a request: `ui_locales` first, then Accept-Language. */
export async function textsFor(
  ctx: Pick<AppContext, 'db'>,
  c: Context,
  uiLocales: string | undefined,
): Promise<PageText> {
  const settings = await runtimeSettings(ctx);
  return pageText(chooseLanguage(uiLocales, c.req.header('accept-language'), runtimeDefaults.language), settings);
}

export interface PageOptions {
  status?: 200 | 400 | 401 | 403 | 404;
  /** Addresses forms may post or redirect to besides this service (the client's redirect origin). */
  formTargets?: readonly string[];
  /** The nonce of the one inline script allowed (form_post). */
  scriptNonce?: string;
  /**
   * Addresses the page's iframes load (the clients' front-channel logout addresses): their http(s) origins make the
   * CSP's frame-src; none, no frame at all.
   */
  frameTargets?: readonly string[];
}

/** A fresh nonce for a page's inline script. */
export function scriptNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Sends a server-rendered page with its security headers: a strict Content-Security-Policy (no script except a
 * nonce'd one, forms only to this service and the client's redirect origin, frames only of the origins of
 * `frameTargets`, framing only by system setup's iframe origins), no caching, no sniffing, no referrer.
 */
export async function sendPage(
  ctx: Pick<AppContext, 'db'>,
  c: Context,
  page: JSX.Element,
  options: PageOptions = {},
): Promise<Response> {
  const { iframeDomains } = await runtimeSettings(ctx);
  const targets = [...new Set((options.formTargets ?? []).map(formTarget).filter((t) => t !== undefined))];
  const frames = [...new Set((options.frameTargets ?? []).map(frameTarget).filter((t) => t !== undefined))];
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    options.scriptNonce ? `script-src 'nonce-${options.scriptNonce}'` : "script-src 'none'",
    `form-action 'self'${targets.map((t) => ` ${t}`).join('')}`,
    ...(frames.length > 0 ? [`frame-src ${frames.join(' ')}`] : []),
    `frame-ancestors ${iframeDomains.length > 0 ? iframeDomains.join(' ') : "'none'"}`,
    "base-uri 'none'",
  ].join('; ');
  c.header('Content-Security-Policy', csp);
  if (iframeDomains.length === 0) c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  return c.html(`<!doctype html>${await page}`, options.status ?? 200);
}

/** The CSP source of an address a form may reach: its origin, or its scheme for custom (native app) schemes. */
function formTarget(address: string): string | undefined {
  try {
    const url = new URL(address);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

/** The CSP source of an address a frame may load: its origin, http(s) only. */
function frameTarget(address: string): string | undefined {
  if (!URL.canParse(address)) return undefined;
  const url = new URL(address);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}
