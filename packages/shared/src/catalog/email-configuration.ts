import { z } from 'zod';
import { EmailServer, EmailServerInput, EmailTemplate, EmailTemplateInput, Name } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'EmailConfiguration';
const servers = 'emailservers';
const templates = 'emailtemplates';

export const EmailConfiguration_GetAllEmailServerSettings = op({
  operationId: 'EmailConfiguration_GetAllEmailServerSettings',
  method: 'GET',
  path: '/api/rest/v2/emailconfiguration/emailservers',
  summary: 'List e-mail server settings (passwords left out).',
  tag,
  role: 'Observer',
  list: {
    kind: 'list',
    sortable: ['name', 'port', 'default', 'enableSsl', 'useDefaultCredentials', 'deliveryMethod'],
    defaultSort: 'name',
  },
  response: z.array(EmailServer),
  statuses: statuses(),
  cli: { group: servers, action: 'list' },
});

export const EmailConfiguration_CreateEmailServerSetting = op({
  operationId: 'EmailConfiguration_CreateEmailServerSetting',
  method: 'POST',
  path: '/api/rest/v2/emailconfiguration/emailservers',
  summary: 'Create an e-mail server setting.',
  tag,
  role: 'Administrator',
  body: EmailServerInput,
  response: EmailServer,
  statuses: statuses(400, 409),
  cli: { group: servers, action: 'create' },
});

export const EmailConfiguration_UpdateEmailServerSetting = op({
  operationId: 'EmailConfiguration_UpdateEmailServerSetting',
  method: 'PUT',
  path: '/api/rest/v2/emailconfiguration/emailservers',
  summary: 'Update an e-mail server setting, found by name.',
  tag,
  role: 'Administrator',
  body: EmailServerInput,
  response: EmailServer,
  statuses: statuses(400, 404),
  cli: { group: servers, action: 'update' },
});

export const EmailConfiguration_DeleteEmailServerSetting = op({
  operationId: 'EmailConfiguration_DeleteEmailServerSetting',
  method: 'DELETE',
  path: '/api/rest/v2/emailconfiguration/emailservers/{emailServerName}',
  summary: 'Delete an e-mail server setting.',
  tag,
  role: 'Administrator',
  params: z.object({ emailServerName: Name }),
  statuses: statuses(404),
  cli: { group: servers, action: 'delete' },
});

export const EmailConfiguration_GetAllEmailTemplateSettings = op({
  operationId: 'EmailConfiguration_GetAllEmailTemplateSettings',
  method: 'GET',
  path: '/api/rest/v2/emailconfiguration/emailtemplates',
  summary: 'List e-mail templates.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['name', 'resourceKey'], defaultSort: 'name' },
  response: z.array(EmailTemplate),
  statuses: statuses(),
  cli: { group: templates, action: 'list' },
});

export const EmailConfiguration_PostEmailTemplateSetting = op({
  operationId: 'EmailConfiguration_PostEmailTemplateSetting',
  method: 'POST',
  path: '/api/rest/v2/emailconfiguration/emailtemplates',
  summary: 'Create an e-mail template.',
  tag,
  role: 'Administrator',
  body: EmailTemplateInput,
  statuses: statuses(400, 409),
  cli: { group: templates, action: 'create' },
});

export const EmailConfiguration_UpdateEmailTemplateSetting = op({
  operationId: 'EmailConfiguration_UpdateEmailTemplateSetting',
  method: 'PUT',
  path: '/api/rest/v2/emailconfiguration/emailtemplates',
  summary: 'Update an e-mail template, found by name.',
  tag,
  role: 'Administrator',
  body: EmailTemplateInput,
  statuses: statuses(400, 404),
  cli: { group: templates, action: 'update' },
});

export const emailConfigurationOperations = [
  EmailConfiguration_GetAllEmailServerSettings,
  EmailConfiguration_CreateEmailServerSetting,
  EmailConfiguration_UpdateEmailServerSetting,
  EmailConfiguration_DeleteEmailServerSetting,
  EmailConfiguration_GetAllEmailTemplateSettings,
  EmailConfiguration_PostEmailTemplateSetting,
  EmailConfiguration_UpdateEmailTemplateSetting,
] as const;
