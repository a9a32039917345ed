import { z } from 'zod';
import { Email, Name } from './common.js';

export const deliveryMethods = ['Network', 'SpecifiedPickupDirectory'] as const;
export const DeliveryMethod = z.enum(deliveryMethods);
export type DeliveryMethod = z.infer<typeof DeliveryMethod>;

/** An e-mail (SMTP) server setting; the password is never returned. */
export const EmailServer = z.object({
  name: z.string(),
  host: z.string().nullable(),
  port: z.number().int(),
  default: z.boolean(),
  enableSsl: z.boolean(),
  useDefaultCredentials: z.boolean(),
  userName: z.string().nullable(),
  deliveryMethod: DeliveryMethod,
  pickupDirectoryLocation: z.string().nullable(),
  fromAddress: z.string().nullable(),
});
export type EmailServer = z.infer<typeof EmailServer>;

export const EmailServerInput = z.object({
  name: Name,
  host: z.string().max(253, 'must be at most 253 characters').nullable().optional(),
  port: z.number().int().min(1).max(65535).optional(),
  default: z.boolean().optional(),
  enableSsl: z.boolean().optional(),
  useDefaultCredentials: z.boolean().optional(),
  userName: z.string().max(256, 'must be at most 256 characters').nullable().optional(),
  /** Write-only; kept encrypted. */
  password: z.string().max(1024, 'must be at most 1024 characters').nullable().optional(),
  deliveryMethod: DeliveryMethod.optional(),
  pickupDirectoryLocation: z.string().max(1024, 'must be at most 1024 characters').nullable().optional(),
  fromAddress: Email.nullable().optional(),
});
export type EmailServerInput = z.infer<typeof EmailServerInput>;

export const EmailTemplate = z.object({
  name: z.string(),
  resourceKey: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  isHtml: z.boolean(),
});
export type EmailTemplate = z.infer<typeof EmailTemplate>;

export const EmailTemplateInput = z.object({
  name: Name,
  resourceKey: Name.nullable().optional(),
  subject: z.string().max(1024, 'must be at most 1024 characters'),
  body: z.string().max(1_048_576, 'must be at most 1 MiB'),
  isHtml: z.boolean().optional(),
});
export type EmailTemplateInput = z.infer<typeof EmailTemplateInput>;

/** Body of a mail sent with a template and server given in the request (neither is saved). */
export const EmailConfigurationInput = z.object({
  emailTemplate: EmailTemplateInput,
  emailServer: EmailServerInput,
});
export type EmailConfigurationInput = z.infer<typeof EmailConfigurationInput>;
