import { z } from 'zod';
import {
  Name,
  PatchBody,
  SharedConfigurableSetting,
  SharedConfigurableSettingInput,
  SharedConfigurableSettingUpdateInput,
} from '../schemas/index.js';
import { statuses, statusesWithout403 } from './helpers.js';
import { op } from './op.js';

const tag = 'SharedConfigurableSettings';
const group = 'settings';
const nameParams = z.object({ settingName: Name });

export const SharedConfigurableSettings_GetAll = op({
  operationId: 'SharedConfigurableSettings_GetAll',
  method: 'GET',
  path: '/api/rest/v2/sharedconfigurablesettings',
  summary: 'List shared configurable settings; 404 when there are none.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['name', 'resourceKey'], defaultSort: 'name' },
  response: z.array(SharedConfigurableSetting),
  statuses: statuses(404),
  cli: { group, action: 'list' },
});

export const SharedConfigurableSettings_Create = op({
  operationId: 'SharedConfigurableSettings_Create',
  method: 'POST',
  path: '/api/rest/v2/sharedconfigurablesettings',
  summary: 'Create a shared configurable setting (localized contents in nl or en).',
  tag,
  role: 'Administrator',
  body: SharedConfigurableSettingInput,
  response: SharedConfigurableSetting,
  statuses: statusesWithout403(400, 409),
  cli: { group, action: 'create' },
});

export const SharedConfigurableSettings_Update = op({
  operationId: 'SharedConfigurableSettings_Update',
  method: 'PUT',
  path: '/api/rest/v2/sharedconfigurablesettings',
  summary: 'Update a shared configurable setting, found by id.',
  tag,
  role: 'Administrator',
  body: SharedConfigurableSettingUpdateInput,
  response: SharedConfigurableSetting,
  statuses: statusesWithout403(400, 404),
  cli: { group, action: 'update' },
});

export const SharedConfigurableSettings_GetByName = op({
  operationId: 'SharedConfigurableSettings_GetByName',
  method: 'GET',
  path: '/api/rest/v2/sharedconfigurablesettings/{settingName}',
  summary: 'Get a shared configurable setting by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: SharedConfigurableSetting,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const SharedConfigurableSettings_Delete = op({
  operationId: 'SharedConfigurableSettings_Delete',
  method: 'DELETE',
  path: '/api/rest/v2/sharedconfigurablesettings/{settingName}',
  summary: 'Delete a shared configurable setting.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const SharedConfigurableSettings_Patch = op({
  operationId: 'SharedConfigurableSettings_Patch',
  method: 'PATCH',
  path: '/api/rest/v2/sharedconfigurablesettings/{settingName}',
  summary: 'Change fields of a shared configurable setting with a list of operations.',
  tag,
  role: 'Administrator',
  params: nameParams,
  body: PatchBody,
  response: SharedConfigurableSetting,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'patch' },
});

export const SharedConfigurableSettings_GetByResourceKey = op({
  operationId: 'SharedConfigurableSettings_GetByResourceKey',
  method: 'GET',
  path: '/api/rest/v2/sharedconfigurablesettings/resourcekey/{resourceKey}',
  summary: 'Get a shared configurable setting by resource key.',
  tag,
  role: 'Observer',
  params: z.object({ resourceKey: Name }),
  response: SharedConfigurableSetting,
  statuses: statuses(404),
  cli: { group, action: 'get-by-resource-key' },
});

export const sharedSettingOperations = [
  SharedConfigurableSettings_GetAll,
  SharedConfigurableSettings_Create,
  SharedConfigurableSettings_Update,
  SharedConfigurableSettings_GetByName,
  SharedConfigurableSettings_Delete,
  SharedConfigurableSettings_Patch,
  SharedConfigurableSettings_GetByResourceKey,
] as const;
