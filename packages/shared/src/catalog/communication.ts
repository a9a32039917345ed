import { z } from 'zod';
import {
  EmailConfigurationInput,
  Guid,
  Name,
  PhoneNumber,
  SmsGatewaySendInput,
  SmsMessageInput,
} from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Communication';
const group = 'communication';
const phoneParams = z.object({ phoneNumber: PhoneNumber });

export const Communication_SendEmail = op({
  operationId: 'Communication_SendEmail',
  method: 'POST',
  path: '/api/rest/v2/communication/{userId}/{emailTemplateName}',
  summary: 'Mail a user with a saved e-mail template.',
  tag,
  role: 'Administrator',
  params: z.object({ userId: Guid, emailTemplateName: Name }),
  statuses: statuses(400, 404),
  cli: { group, action: 'send-email' },
});

export const Communication_SendEmailConfiguration = op({
  operationId: 'Communication_SendEmailConfiguration',
  method: 'POST',
  path: '/api/rest/v2/communication/{userId}/customizedEmailTemplateAndEmailServer',
  summary: 'Mail a user with a template and server given in the request (not saved).',
  tag,
  role: 'Administrator',
  params: z.object({ userId: Guid }),
  body: EmailConfigurationInput,
  statuses: statuses(400, 404),
  cli: { group, action: 'send-email-custom' },
});

export const Communication_SendSms = op({
  operationId: 'Communication_SendSms',
  method: 'POST',
  path: '/api/rest/v2/communication/{phoneNumber}/customizedSmsGateway',
  summary: 'Send an SMS to an international phone number through a gateway given in the request (not saved).',
  tag,
  role: 'Administrator',
  params: phoneParams,
  body: SmsGatewaySendInput,
  statuses: statuses(400),
  cli: { group, action: 'send-sms-gateway' },
});

export const Communication_SendSmWithCustomMessage = op({
  operationId: 'Communication_SendSmWithCustomMessage',
  method: 'POST',
  path: '/api/rest/v2/communication/{phoneNumber}/customizedSmsMessage',
  summary: 'Send an SMS through the default gateway; an empty message uses DefaultSMSOTPCodeTemplate.',
  tag,
  role: 'Administrator',
  params: phoneParams,
  body: SmsMessageInput.optional(),
  statuses: statuses(400),
  cli: { group, action: 'send-sms' },
});

export const communicationOperations = [
  Communication_SendEmail,
  Communication_SendEmailConfiguration,
  Communication_SendSms,
  Communication_SendSmWithCustomMessage,
] as const;
