import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeliveryMethod } from '@idsvc/shared';
import nodemailer from 'nodemailer';
import { resolveDataPath } from './data-path.js';
import { DeliveryError, reasonOf } from './delivery-error.js';
import type { RenderedEmail } from './templates.js';

/** An e-mail server setting with its password opened: what delivery needs. */
export interface MailServer {
  host: string | null;
  port: number;
  enableSsl: boolean;
  useDefaultCredentials: boolean;
  userName: string | null;
  password: string | null;
  deliveryMethod: DeliveryMethod;
  pickupDirectoryLocation: string | null;
  fromAddress: string | null;
}

export interface OutgoingMail extends RenderedEmail {
  to: string;
}

export interface SentMail {
  messageId: string;
  /** The `.eml` file written, for the pickup-directory delivery. */
  file?: string;
}

export interface MailerOptions {
  /** Relative pickup directories are resolved under it. */
  dataDir: string;
  /** Sender used when the server has no fromAddress. */
  defaultFrom: string;
}

export interface Mailer {
  /** Hands one message over; a DeliveryError says why it was not. */
  send(mail: OutgoingMail): Promise<SentMail>;
}

const implicitTlsPort = 465;

/**
 * A mailer for one server setting. `Network`: SMTP to host:port; with enableSsl, implicit TLS on port 465 and
 * STARTTLS (required) on any other port; without it, plain SMTP. Credentials: none with useDefaultCredentials,
 * else userName and password when a userName is set. `SpecifiedPickupDirectory`: each message is written as an
 * `.eml` file into pickupDirectoryLocation (relative to the data dir).
 */
export function openMailer(server: MailServer, options: MailerOptions): Mailer {
  const from = server.fromAddress || options.defaultFrom;
  const envelope = (mail: OutgoingMail) => ({
    from,
    to: mail.to,
    subject: mail.subject,
    ...(mail.html === undefined ? {} : { html: mail.html }),
    ...(mail.text === undefined ? {} : { text: mail.text }),
  });

  if (server.deliveryMethod === 'SpecifiedPickupDirectory') {
    const location = server.pickupDirectoryLocation;
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    return {
      async send(mail) {
        try {
          if (!location) throw new Error('no pickupDirectoryLocation is set');
          const dir = resolveDataPath(options.dataDir, location);
          const info = await transport.sendMail(envelope(mail));
          await mkdir(dir, { recursive: true });
          const file = path.join(dir, `${randomUUID()}.eml`);
          await writeFile(file, info.message as Buffer, { flag: 'wx', mode: 0o600 });
          return { messageId: String(info.messageId), file };
        } catch (error) {
          throw new DeliveryError(`the mail was not written: ${reasonOf(error)}`, { cause: error });
        }
      },
    };
  }

  const auth =
    !server.useDefaultCredentials && server.userName
      ? { user: server.userName, pass: server.password ?? '' }
      : undefined;
  const secure = server.enableSsl && server.port === implicitTlsPort;
  const transport = nodemailer.createTransport({
    host: server.host ?? undefined,
    port: server.port,
    secure,
    requireTLS: server.enableSsl && !secure,
    ignoreTLS: !server.enableSsl,
    ...(auth ? { auth } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail) {
      try {
        if (!server.host) throw new Error('no host is set');
        const info = await transport.sendMail(envelope(mail));
        const rejected = (info.rejected ?? []).map(String);
        if (rejected.length > 0) throw new Error(`the server refused ${rejected.join(', ')}`);
        return { messageId: String(info.messageId) };
      } catch (error) {
        throw new DeliveryError(`the mail was not sent: ${reasonOf(error)}`, { cause: error });
      }
    },
  };
}
