import { randomInt } from 'node:crypto';
import type { UserRow } from '../../auth/lockout.js';
import { EmailOtpConfiguration, SmsOtpConfiguration } from '../../connections/config-schemas.js';
import type { AppContext } from '../../context.js';
import { DEFAULT_SMS_OTP_TEMPLATE } from '../../messaging/default-templates.js';
import { normalisePhoneNumber, sendSms } from '../../messaging/sms.js';
import { type EmailTemplateText, merge, renderSms } from '../../messaging/templates.js';
import { type CodeOwner, deleteCode, replaceCode } from '../../queries/one-time-codes.js';
import { messagingServices } from '../../services/messaging.js';
import { mac, macKey } from '../mac-key.js';
import { type Language, type TextKey, text } from '../pages/texts.js';
import type { CodeFactor } from './second-factor-connection.js';

/** Wrong codes a code takes: at this many it is no longer accepted. */
export const OTP_MAX_ATTEMPTS = 5;
/** Least seconds between two codes sent to a user for one connection. */
export const OTP_RESEND_INTERVAL = 30;
/** The merge field of the code in a connection's e-mail template (`emailTemplateName`). */
export const OTP_EMAIL_MERGE_FIELD = 'OTPCODE';

/** Where a code goes, as the page shows it: the channel and the address masked. */
export interface CodeDelivery {
  channel: 'sms' | 'email';
  to: string;
}

/** What sending a code came to: sent; not sent because one was sent moments ago; or an error to show. */
export type IssuedCode =
  | { delivery: CodeDelivery; sent: boolean }
  | { error: Extract<TextKey, 'otp.noPhoneNumber' | 'otp.noEmail' | 'otp.notSent'> };

/** The length and lifetime (seconds) of the connection's codes: its configuration, else 6 digits and 5 minutes. */
export function codeSettings(factor: CodeFactor): { length: number; lifetime: number } {
  const schema = factor.pluginType === 'SmsOtp' ? SmsOtpConfiguration : EmailOtpConfiguration;
  const parsed = schema.safeParse(factor.configuration);
  const config = parsed.success ? parsed.data : schema.parse({});
  return { length: config.codeLength, lifetime: config.codeLifetime };
}

/** A code of `length` decimal digits, each from the CSPRNG. */
export function generateCode(length = 6): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(0, 10));
  return code;
}

/**
 * What is stored of a code: HMAC-SHA256 with the runtime's MAC key over the code and its owner, so that a copy of
 * the table alone does not give the codes away (six digits are quickly tried against a plain digest).
 */
export function codeDigest(key: Buffer, owner: CodeOwner, code: string): string {
  return mac(key, ['one-time code', owner.userId, owner.connectionId, code]);
}

/** A phone number as the page shows it: its last four digits (`••••5678`). */
export function maskPhoneNumber(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, '');
  return `••••${digits.slice(-4)}`;
}

/** An e-mail address as the page shows it: the first character of the local part and the domain (`j•••@x.org`). */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${Array.from(address)[0]}•••${address.slice(at)}`;
}

/** The user's address for the factor's codes (a phone number in international form, or an e-mail address). */
export function destinationOf(
  factor: CodeFactor,
  user: Pick<UserRow, 'phoneNumber' | 'email'>,
): { address: string; delivery: CodeDelivery } | undefined {
  if (factor.pluginType === 'SmsOtp') {
    const address = user.phoneNumber ? normalisePhoneNumber(user.phoneNumber) : undefined;
    return address ? { address, delivery: { channel: 'sms', to: maskPhoneNumber(address) } } : undefined;
  }
  const address = user.email?.trim();
  return address ? { address, delivery: { channel: 'email', to: maskEmail(address) } } : undefined;
}

/**
 * Sends the user a new code for the factor: stored (digest, expiry, no attempts yet) in place of the earlier code,
 * which no longer works, then sent by SMS or e-mail. No code is sent within `OTP_RESEND_INTERVAL` of the previous
 * one (the earlier code stays); a code that could not be sent is removed again.
 */
export async function issueCode(
  ctx: AppContext,
  user: UserRow,
  factor: CodeFactor,
  language: Language,
): Promise<IssuedCode> {
  const destination = destinationOf(factor, user);
  if (!destination) return { error: factor.pluginType === 'SmsOtp' ? 'otp.noPhoneNumber' : 'otp.noEmail' };
  const { length, lifetime } = codeSettings(factor);
  const owner = { userId: user.id, connectionId: factor.connectionId };
  const code = generateCode(length);
  const codeHash = codeDigest(await macKey(ctx), owner, code);
  const stored = await replaceCode(ctx.db, owner, {
    codeHash,
    lifetimeSeconds: lifetime,
    minIntervalSeconds: OTP_RESEND_INTERVAL,
  });
  if (!stored) return { delivery: destination.delivery, sent: false };
  try {
    if (factor.pluginType === 'SmsOtp') await sendSmsCode(ctx, factor, destination.address, code);
    else await mailCode(ctx, user, factor, code, { language, lifetime });
  } catch (error) {
    await deleteCode(ctx.db, owner, codeHash);
    ctx.logger.warn('no one-time code was sent', {
      userId: user.id,
      connection: factor.name,
      reason: (error as Error).message,
    });
    return { error: 'otp.notSent' };
  }
  return { delivery: destination.delivery, sent: true };
}

/**
 * The code by SMS through the default gateway, with the connection's template when it names one other than
 * DefaultSMSOTPCodeTemplate, else the gateway's, else DefaultSMSOTPCodeTemplate (merge fields SMSTEXT and SMSNUMBER).
 */
async function sendSmsCode(ctx: AppContext, factor: CodeFactor, to: string, code: string): Promise<void> {
  const { smsConfiguration } = messagingServices(ctx);
  const gateway = await smsConfiguration.defaultGateway();
  if (!gateway) throw new Error('no SMS gateway is the default');
  const configured = factor.configuration.smsTemplateName;
  const name =
    typeof configured === 'string' && configured !== DEFAULT_SMS_OTP_TEMPLATE
      ? configured
      : (gateway.smsTemplateName ?? DEFAULT_SMS_OTP_TEMPLATE);
  const template = await smsConfiguration.template(name);
  if (!template) throw new Error(`SMS template ${name} does not exist`);
  const message = { to, text: renderSms(template.content, { text: code, number: to }) };
  await sendSms(gateway.settings, message, { dataDir: ctx.config.dataDir });
}

/**
 * The code by e-mail through the default server: the connection's template (`emailTemplateName`, the code in the
 * merge field OTPCODE besides the user's fields), else a message in the page's language.
 */
async function mailCode(
  ctx: AppContext,
  user: UserRow,
  factor: CodeFactor,
  code: string,
  options: { language: Language; lifetime: number },
): Promise<void> {
  const { emailConfiguration, communication } = messagingServices(ctx);
  const server = await emailConfiguration.defaultServer();
  if (!server) throw new Error('no e-mail server is the default');
  const name = factor.configuration.emailTemplateName;
  let template: EmailTemplateText;
  if (typeof name === 'string' && name !== '') {
    const saved = await emailConfiguration.template(name);
    if (!saved) throw new Error(`e-mail template ${name} does not exist`);
    const withCode = (value: string) => merge(value, { [OTP_EMAIL_MERGE_FIELD]: code });
    template = { subject: withCode(saved.subject), body: withCode(saved.body), isHtml: saved.isHtml };
  } else {
    const minutes = String(Math.max(1, Math.round(options.lifetime / 60)));
    template = {
      subject: text(options.language, 'otp.mailSubject'),
      body: text(options.language, 'otp.mailBody', { code, minutes }),
      isHtml: false,
    };
  }
  await communication.mailUser(await communication.mustLoadUser(user.id), template, server);
}
