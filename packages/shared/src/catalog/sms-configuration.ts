import { z } from 'zod';
import { Name, SmsGateway, SmsGatewayInput, SmsTemplate, SmsTemplateInput } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'SmsConfiguration';
const gateways = 'smsgateways';
const templates = 'smstemplates';

export const SmsConfiguration_GetAllSmsGatewayConfigurations = op({
  operationId: 'SmsConfiguration_GetAllSmsGatewayConfigurations',
  method: 'GET',
  path: '/api/rest/v2/smsconfiguration/smsgateway',
  summary: 'List SMS gateway configurations (passwords left out).',
  tag,
  role: 'Observer',
  list: {
    kind: 'list',
    sortable: ['userName', 'providerType', 'isDefault', 'smsTemplateName'],
    defaultSort: 'userName',
  },
  response: z.array(SmsGateway),
  statuses: statuses(),
  cli: { group: gateways, action: 'list' },
});

export const SmsConfiguration_CreateSmsGatewayConfiguration = op({
  operationId: 'SmsConfiguration_CreateSmsGatewayConfiguration',
  method: 'POST',
  path: '/api/rest/v2/smsconfiguration/smsgateway',
  summary: 'Create an SMS gateway configuration.',
  tag,
  role: 'Administrator',
  body: SmsGatewayInput,
  statuses: statuses(400, 409),
  cli: { group: gateways, action: 'create' },
});

export const SmsConfiguration_UpdateSmsGatewayConfiguration = op({
  operationId: 'SmsConfiguration_UpdateSmsGatewayConfiguration',
  method: 'PUT',
  path: '/api/rest/v2/smsconfiguration/smsgateway',
  summary: 'Update an SMS gateway configuration, found by name.',
  tag,
  role: 'Administrator',
  body: SmsGatewayInput,
  statuses: statuses(400, 404),
  cli: { group: gateways, action: 'update' },
});

export const SmsConfiguration_DeleteSmsGatewayConfiguration = op({
  operationId: 'SmsConfiguration_DeleteSmsGatewayConfiguration',
  method: 'DELETE',
  path: '/api/rest/v2/smsconfiguration/smsgateway/{name}',
  summary: 'Delete an SMS gateway configuration.',
  tag,
  role: 'Administrator',
  params: z.object({ name: Name }),
  statuses: statuses(404),
  cli: { group: gateways, action: 'delete' },
});

export const SmsConfiguration_GetAllSmsTemplateConfiguration = op({
  operationId: 'SmsConfiguration_GetAllSmsTemplateConfiguration',
  method: 'GET',
  path: '/api/rest/v2/smsconfiguration/smstemplate',
  summary: 'List SMS templates.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['name'], defaultSort: 'name' },
  response: z.array(SmsTemplate),
  statuses: statuses(),
  cli: { group: templates, action: 'list' },
});

export const SmsConfiguration_PostSmsTemplateConfiguration = op({
  operationId: 'SmsConfiguration_PostSmsTemplateConfiguration',
  method: 'POST',
  path: '/api/rest/v2/smsconfiguration/smstemplate',
  summary: 'Create an SMS template (merge fields <%=SMSTEXT%> and <%=SMSNUMBER%>).',
  tag,
  role: 'Administrator',
  body: SmsTemplateInput,
  statuses: statuses(400, 409),
  cli: { group: templates, action: 'create' },
});

export const SmsConfiguration_UpdateSmsTemplateConfiguration = op({
  operationId: 'SmsConfiguration_UpdateSmsTemplateConfiguration',
  method: 'PUT',
  path: '/api/rest/v2/smsconfiguration/smstemplate',
  summary: 'Update an SMS template, found by name.',
  tag,
  role: 'Administrator',
  body: SmsTemplateInput,
  statuses: statuses(400, 404),
  cli: { group: templates, action: 'update' },
});

export const SmsConfiguration_DeleteSmsTemplateConfiguration = op({
  operationId: 'SmsConfiguration_DeleteSmsTemplateConfiguration',
  method: 'DELETE',
  path: '/api/rest/v2/smsconfiguration/smstemplate/{smsTemplateName}',
  summary: 'Delete an SMS template; 409 while an SMS gateway names it.',
  tag,
  role: 'Administrator',
  params: z.object({ smsTemplateName: Name }),
  // The spec's row names 404 only; its error table gives 409 for an object in use by another resource.
  statuses: statuses(404, 409),
  cli: { group: templates, action: 'delete' },
});

export const smsConfigurationOperations = [
  SmsConfiguration_GetAllSmsGatewayConfigurations,
  SmsConfiguration_CreateSmsGatewayConfiguration,
  SmsConfiguration_UpdateSmsGatewayConfiguration,
  SmsConfiguration_DeleteSmsGatewayConfiguration,
  SmsConfiguration_GetAllSmsTemplateConfiguration,
  SmsConfiguration_PostSmsTemplateConfiguration,
  SmsConfiguration_UpdateSmsTemplateConfiguration,
  SmsConfiguration_DeleteSmsTemplateConfiguration,
] as const;
