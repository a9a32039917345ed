import { randomInt } from 'node:crypto';
import type { EmailConfigurationInput, SmsGatewaySendInput, SmsMessageInput, User } from '@idsvc/shared';
import type { Db } from '../db/client.js';
import { badRequest, notFound } from '../http/api-error.js';
import { DEFAULT_SMS_OTP_TEMPLATE } from '../messaging/default-templates.js';
import { DeliveryError } from '../messaging/delivery-error.js';
import { type MailServer, openMailer } from '../messaging/mailer.js';
import { normalisePhoneNumber, type SmsGatewaySettings, sendSms } from '../messaging/sms.js';
import { type EmailTemplateText, renderEmail, renderSms, userMergeValues } from '../messaging/templates.js';
import { loadUser } from '../queries/users.js';
import type { EmailConfigurationService } from './email-configuration.js';
import type { SmsConfigurationService } from './sms-configuration.js';

/** Where delivery writes files and who mails come from when a server names no sender. */
export interface DeliveryContext {
  dataDir: string;
  baseUrl(): string;
}

/** A one-time link to put into a mail (merge fields LINK and EXPIRESAT). */
export interface MailLink {
  url: string;
  expiresAt: Date;
}

/** Turns a delivery failure into the operations' 400 "not sent", with the reason. */
async function deliver<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof DeliveryError) throw badRequest(error.message);
    throw error;
  }
}

/** A random six-digit code: the text of an OTP-template message sent without a text of its own. */
const sampleCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Mails and SMS to users and phone numbers, through saved or given servers and gateways. */
export function communicationService(
  db: Db,
  email: EmailConfigurationService,
  sms: SmsConfigurationService,
  delivery: DeliveryContext,
) {
  const mailerOptions = () => ({
    dataDir: delivery.dataDir,
    defaultFrom: `no-reply@${new URL(delivery.baseUrl()).hostname}`,
  });

  async function mustLoadUser(id: string): Promise<User> {
    const user = await loadUser(db, id);
    if (!user) throw notFound(`user ${id} does not exist`);
    return user;
  }

  async function mustFindTemplate(name: string) {
    const template = await email.template(name);
    if (!template) throw notFound(`e-mail template ${name} does not exist`);
    return template;
  }

  async function defaultServer(): Promise<MailServer> {
    const server = await email.defaultServer();
    if (!server) throw badRequest('the mail was not sent: no e-mail server is the default');
    return server;
  }

  function mustHaveEmail(user: User): string {
    if (!user.email) throw badRequest(`the mail was not sent: user ${user.userName} has no e-mail address`);
    return user.email;
  }

  /** Mails the user the filled template through the server; 400 with the reason when it was not sent. */
  async function mailUser(user: User, template: EmailTemplateText, server: MailServer, link?: MailLink) {
    const to = mustHaveEmail(user);
    const message = renderEmail(template, userMergeValues(user, link));
    return deliver(() => openMailer(server, mailerOptions()).send({ to, ...message }));
  }

  function mustBeInternational(phoneNumber: string): string {
    const to = normalisePhoneNumber(phoneNumber);
    if (!to)
      throw badRequest(`the SMS was not sent: ${phoneNumber} is not an international phone number (+31612345678)`);
    return to;
  }

  /** The text of an SMS: the given one, or the OTP template filled with a sample code. */
  async function smsText(message: string | undefined, templateName: string, to: string): Promise<string> {
    if (message?.trim()) return message;
    const template = await sms.template(templateName);
    if (!template) throw badRequest(`the SMS was not sent: SMS template ${templateName} does not exist`);
    return renderSms(template.content, { text: sampleCode(), number: to });
  }

  const sendThrough = (gateway: SmsGatewaySettings, to: string, text: string) =>
    deliver(() => sendSms(gateway, { to, text }, { dataDir: delivery.dataDir }));

  return {
    mustLoadUser,
    mustFindTemplate,
    defaultServer,
    mustHaveEmail,
    mailUser,

    /** Communication_SendEmail: a saved template through the default server. */
    async sendEmail(userId: string, templateName: string): Promise<void> {
      const user = await mustLoadUser(userId);
      const template = await mustFindTemplate(templateName);
      await mailUser(user, template, await defaultServer());
    },

    /** Communication_SendEmailConfiguration: the template and server of the request, neither saved. */
    async sendEmailWithConfiguration(userId: string, input: EmailConfigurationInput): Promise<void> {
      const user = await mustLoadUser(userId);
      const server = email.mailServerOf(input.emailServer);
      const { subject, body, isHtml } = input.emailTemplate;
      await mailUser(user, { subject, body, isHtml: isHtml ?? false }, server);
    },

    /** Communication_SendSms: through the gateway of the request (not saved); smsMessage or its template. */
    async sendSmsThroughGateway(phoneNumber: string, input: SmsGatewaySendInput): Promise<void> {
      const to = mustBeInternational(phoneNumber);
      const gateway = sms.gatewaySettingsOf(input);
      const text = await smsText(input.smsMessage, input.smsTemplateName ?? DEFAULT_SMS_OTP_TEMPLATE, to);
      await sendThrough(gateway, to, text);
    },

    /** Communication_SendSmWithCustomMessage: through the default gateway; empty means the OTP template. */
    async sendCustomSms(phoneNumber: string, input: SmsMessageInput | undefined): Promise<void> {
      const to = mustBeInternational(phoneNumber);
      const gateway = await sms.defaultGateway();
      if (!gateway) throw badRequest('the SMS was not sent: no SMS gateway is the default');
      const text = await smsText(input?.smsMessage, DEFAULT_SMS_OTP_TEMPLATE, to);
      await sendThrough(gateway.settings, to, text);
    },

    /**
     * Sends a one-time code through the default gateway with its template (DefaultSMSOTPCodeTemplate when it names
     * none): for second-factor sign-ins. 400 when it was not sent.
     */
    async sendSmsCode(phoneNumber: string, code: string): Promise<void> {
      const to = mustBeInternational(phoneNumber);
      const gateway = await sms.defaultGateway();
      if (!gateway) throw badRequest('the SMS was not sent: no SMS gateway is the default');
      const name = gateway.smsTemplateName ?? DEFAULT_SMS_OTP_TEMPLATE;
      const template = await sms.template(name);
      if (!template) throw badRequest(`the SMS was not sent: SMS template ${name} does not exist`);
      await sendThrough(gateway.settings, to, renderSms(template.content, { text: code, number: to }));
    },
  };
}

export type CommunicationService = ReturnType<typeof communicationService>;
