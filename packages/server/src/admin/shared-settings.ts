import {
  SharedConfigurableSettings_Create,
  SharedConfigurableSettings_Delete,
  SharedConfigurableSettings_GetAll,
  SharedConfigurableSettings_GetByName,
  SharedConfigurableSettings_GetByResourceKey,
  SharedConfigurableSettings_Patch,
  SharedConfigurableSettings_Update,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const sharedSettingHandlers = [
  handle(SharedConfigurableSettings_GetAll, ({ list, services }) => services.sharedSettings.list(list)),
  handle(SharedConfigurableSettings_GetByName, ({ params, services }) =>
    services.sharedSettings.get(params.settingName),
  ),
  handle(SharedConfigurableSettings_GetByResourceKey, ({ params, services }) =>
    services.sharedSettings.getByResourceKey(params.resourceKey),
  ),
  handle(SharedConfigurableSettings_Create, ({ body, services, by }) => services.sharedSettings.create(body, by)),
  handle(SharedConfigurableSettings_Update, ({ body, services, by }) => services.sharedSettings.update(body, by)),
  handle(SharedConfigurableSettings_Patch, ({ params, body, services, by }) =>
    services.sharedSettings.patch(params.settingName, body, by),
  ),
  handle(SharedConfigurableSettings_Delete, ({ params, services, by }) =>
    services.sharedSettings.delete(params.settingName, by),
  ),
];
