import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SmsProviderType } from '@idsvc/shared';
import { resolveDataPath } from './data-path.js';
import { DeliveryError, reasonOf } from './delivery-error.js';
import { merge, smsGatewayBodyFields } from './templates.js';

/** An SMS gateway setting with its password opened: what delivery needs. */
export interface SmsGatewaySettings {
  providerType: SmsProviderType;
  url: string | null;
  bodyTemplate: string | null;
  fileName: string | null;
  userName: string | null;
  password: string | null;
}

export interface OutgoingSms {
  /** International form, as `normalisePhoneNumber` returns it. */
  to: string;
  text: string;
}

/** Posted when a gateway has no bodyTemplate. */
export const defaultSmsBodyTemplate = '{"to":"<%=SMSNUMBER%>","text":"<%=SMSTEXT%>"}';

export type SmsBodyFormat = 'json' | 'form' | 'text';

const formTemplate = /^[A-Za-z0-9_.[\]-]+=[^\s&]*(?:&[A-Za-z0-9_.[\]-]+=[^\s&]*)*$/;

/**
 * How a bodyTemplate is read, which decides how values are encoded into it: `json` when it starts with `{` or `[`
 * (values JSON-string-escaped, to be placed inside quotes), `form` when it is `key=value&…` (values URL-encoded),
 * `text` otherwise (values as they are).
 */
export function smsBodyFormat(template: string): SmsBodyFormat {
  const trimmed = template.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'json';
  return formTemplate.test(trimmed) ? 'form' : 'text';
}

const contentTypes: Record<SmsBodyFormat, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  text: 'text/plain; charset=utf-8',
};

const encoders: Record<SmsBodyFormat, (value: string) => string> = {
  json: (value) => JSON.stringify(value).slice(1, -1),
  form: encodeURIComponent,
  text: (value) => value,
};

/** The request body an Http gateway receives: the bodyTemplate (or the default) with its merge fields filled. */
export function smsRequestBody(
  template: string | null,
  values: { number: string; text: string; userName?: string | null; password?: string | null },
): { contentType: string; body: string } {
  const source = template?.trim() ? template : defaultSmsBodyTemplate;
  const format = smsBodyFormat(source);
  const body = merge(
    source.trim(),
    { SMSNUMBER: values.number, SMSTEXT: values.text, USERNAME: values.userName, PASSWORD: values.password },
    Object.keys(smsGatewayBodyFields),
    encoders[format],
  );
  return { contentType: contentTypes[format], body };
}

/**
 * A phone number in international form (`+` and 7 to 15 digits, E.164), from one written with spaces, dots,
 * dashes or parentheses, or with `00` for `+`; undefined when it is not international.
 */
export function normalisePhoneNumber(raw: string): string | undefined {
  let number = raw.trim().replace(/[\s.()-]/g, '');
  if (number.startsWith('00')) number = `+${number.slice(2)}`;
  return /^\+[1-9]\d{6,14}$/.test(number) ? number : undefined;
}

export interface SmsOptions {
  /** Relative file names are resolved under it. */
  dataDir: string;
  timeoutMs?: number;
}

/**
 * Sends one SMS. `Http`: POST of the filled bodyTemplate to the url (basic authentication when a userName is set);
 * any status other than 2xx, a timeout or a network error is a failure. `File`: appends one JSON line
 * `{"time","to","text"}` to fileName under the data dir. A DeliveryError says why a message was not sent.
 */
export async function sendSms(gateway: SmsGatewaySettings, sms: OutgoingSms, options: SmsOptions): Promise<void> {
  try {
    if (gateway.providerType === 'File') {
      if (!gateway.fileName) throw new Error('no fileName is set');
      const file = resolveDataPath(options.dataDir, gateway.fileName);
      await mkdir(path.dirname(file), { recursive: true });
      const line = JSON.stringify({ time: new Date().toISOString(), to: sms.to, text: sms.text });
      await appendFile(file, `${line}\n`, { encoding: 'utf8', mode: 0o600 });
      return;
    }
    if (!gateway.url) throw new Error('no url is set');
    const { contentType, body } = smsRequestBody(gateway.bodyTemplate, {
      number: sms.to,
      text: sms.text,
      userName: gateway.userName,
      password: gateway.password,
    });
    const headers: Record<string, string> = { 'content-type': contentType };
    if (gateway.userName) {
      const credentials = Buffer.from(`${gateway.userName}:${gateway.password ?? ''}`).toString('base64');
      headers.authorization = `Basic ${credentials}`;
    }
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`the gateway answered HTTP ${response.status}`);
  } catch (error) {
    throw new DeliveryError(`the SMS was not sent: ${reasonOf(error)}`, { cause: error });
  }
}
