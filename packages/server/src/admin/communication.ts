import {
  Communication_SendEmail,
  Communication_SendEmailConfiguration,
  Communication_SendSms,
  Communication_SendSmWithCustomMessage,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const communicationHandlers = [
  handle(Communication_SendEmail, ({ params, services }) =>
    services.communication.sendEmail(params.userId, params.emailTemplateName),
  ),
  handle(Communication_SendEmailConfiguration, ({ params, body, services }) =>
    services.communication.sendEmailWithConfiguration(params.userId, body),
  ),
  handle(Communication_SendSms, ({ params, body, services }) =>
    services.communication.sendSmsThroughGateway(params.phoneNumber, body),
  ),
  handle(Communication_SendSmWithCustomMessage, ({ params, body, services }) =>
    services.communication.sendCustomSms(params.phoneNumber, body),
  ),
];
