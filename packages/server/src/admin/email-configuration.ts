import {
  EmailConfiguration_CreateEmailServerSetting,
  EmailConfiguration_DeleteEmailServerSetting,
  EmailConfiguration_GetAllEmailServerSettings,
  EmailConfiguration_GetAllEmailTemplateSettings,
  EmailConfiguration_PostEmailTemplateSetting,
  EmailConfiguration_UpdateEmailServerSetting,
  EmailConfiguration_UpdateEmailTemplateSetting,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const emailConfigurationHandlers = [
  handle(EmailConfiguration_GetAllEmailServerSettings, ({ list, services }) =>
    services.emailConfiguration.listServers(list),
  ),
  handle(EmailConfiguration_CreateEmailServerSetting, ({ body, services, by }) =>
    services.emailConfiguration.createServer(body, by),
  ),
  handle(EmailConfiguration_UpdateEmailServerSetting, ({ body, services, by }) =>
    services.emailConfiguration.updateServer(body, by),
  ),
  handle(EmailConfiguration_DeleteEmailServerSetting, ({ params, services, by }) =>
    services.emailConfiguration.deleteServer(params.emailServerName, by),
  ),
  handle(EmailConfiguration_GetAllEmailTemplateSettings, ({ list, services }) =>
    services.emailConfiguration.listTemplates(list),
  ),
  handle(EmailConfiguration_PostEmailTemplateSetting, ({ body, services, by }) =>
    services.emailConfiguration.createTemplate(body, by),
  ),
  handle(EmailConfiguration_UpdateEmailTemplateSetting, ({ body, services, by }) =>
    services.emailConfiguration.updateTemplate(body, by),
  ),
];
