import {
  SmsConfiguration_CreateSmsGatewayConfiguration,
  SmsConfiguration_DeleteSmsGatewayConfiguration,
  SmsConfiguration_DeleteSmsTemplateConfiguration,
  SmsConfiguration_GetAllSmsGatewayConfigurations,
  SmsConfiguration_GetAllSmsTemplateConfiguration,
  SmsConfiguration_PostSmsTemplateConfiguration,
  SmsConfiguration_UpdateSmsGatewayConfiguration,
  SmsConfiguration_UpdateSmsTemplateConfiguration,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const smsConfigurationHandlers = [
  handle(SmsConfiguration_GetAllSmsGatewayConfigurations, ({ list, services }) =>
    services.smsConfiguration.listGateways(list),
  ),
  handle(SmsConfiguration_CreateSmsGatewayConfiguration, ({ body, services, by }) =>
    services.smsConfiguration.createGateway(body, by),
  ),
  handle(SmsConfiguration_UpdateSmsGatewayConfiguration, ({ body, services, by }) =>
    services.smsConfiguration.updateGateway(body, by),
  ),
  handle(SmsConfiguration_DeleteSmsGatewayConfiguration, ({ params, services, by }) =>
    services.smsConfiguration.deleteGateway(params.name, by),
  ),
  handle(SmsConfiguration_GetAllSmsTemplateConfiguration, ({ list, services }) =>
    services.smsConfiguration.listTemplates(list),
  ),
  handle(SmsConfiguration_PostSmsTemplateConfiguration, ({ body, services, by }) =>
    services.smsConfiguration.createTemplate(body, by),
  ),
  handle(SmsConfiguration_UpdateSmsTemplateConfiguration, ({ body, services, by }) =>
    services.smsConfiguration.updateTemplate(body, by),
  ),
  handle(SmsConfiguration_DeleteSmsTemplateConfiguration, ({ params, services, by }) =>
    services.smsConfiguration.deleteTemplate(params.smsTemplateName, by),
  ),
];
