import { z } from 'zod';
import { Name } from './common.js';

export const smsProviderTypes = ['Http', 'File'] as const;
export const SmsProviderType = z.enum(smsProviderTypes);
export type SmsProviderType = z.infer<typeof SmsProviderType>;

/** Name of the template of one-time-password messages. */
export const defaultSmsOtpTemplateName = 'DefaultSMSOTPCodeTemplate';

/**
 * An SMS gateway. `Http` posts `bodyTemplate` to `url`; `File` appends messages to `fileName`. Templates may use
 * the merge fields `<%=SMSTEXT%>` (the text) and `<%=SMSNUMBER%>` (the destination number).
 */
export const SmsGateway = z.object({
  name: z.string(),
  userName: z.string().nullable(),
  providerType: SmsProviderType,
  isDefault: z.boolean(),
  smsTemplateName: z.string().nullable(),
  url: z.string().nullable(),
  bodyTemplate: z.string().nullable(),
  fileName: z.string().nullable(),
});
export type SmsGateway = z.infer<typeof SmsGateway>;

export const SmsGatewayInput = z.object({
  name: Name,
  userName: z.string().max(256, 'must be at most 256 characters').nullable().optional(),
  /** Write-only; kept encrypted. */
  password: z.string().max(1024, 'must be at most 1024 characters').nullable().optional(),
  providerType: SmsProviderType,
  isDefault: z.boolean().optional(),
  smsTemplateName: Name.nullable().optional(),
  url: z.url().max(2048, 'must be at most 2048 characters').nullable().optional(),
  bodyTemplate: z.string().max(8192, 'must be at most 8192 characters').nullable().optional(),
  fileName: z.string().max(1024, 'must be at most 1024 characters').nullable().optional(),
});
export type SmsGatewayInput = z.infer<typeof SmsGatewayInput>;

/**
 * Body of an SMS sent through a gateway given in the request (not saved): the gateway, and the text to send.
 * Without `smsMessage` the gateway's template (DefaultSMSOTPCodeTemplate when it names none) is sent with a sample
 * code.
 */
export const SmsGatewaySendInput = SmsGatewayInput.extend({
  smsMessage: z.string().max(1600, 'must be at most 1600 characters').optional(),
});
export type SmsGatewaySendInput = z.infer<typeof SmsGatewaySendInput>;

export const SmsTemplate = z.object({
  name: z.string(),
  content: z.string(),
});
export type SmsTemplate = z.infer<typeof SmsTemplate>;

export const SmsTemplateInput = z.object({
  name: Name,
  content: z.string().max(1600, 'must be at most 1600 characters'),
});
export type SmsTemplateInput = z.infer<typeof SmsTemplateInput>;

/** Body of a custom SMS sent through the default gateway; an empty message uses the OTP template. */
export const SmsMessageInput = z.object({
  smsMessage: z.string().max(1600, 'must be at most 1600 characters').optional(),
});
export type SmsMessageInput = z.infer<typeof SmsMessageInput>;
