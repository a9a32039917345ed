import {
  FieldConfiguration_Create,
  FieldConfiguration_Delete,
  FieldConfiguration_Get,
  FieldConfiguration_GetAll,
  FieldConfiguration_Update,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const fieldConfigurationHandlers = [
  handle(FieldConfiguration_GetAll, ({ services }) => services.fieldConfiguration.list()),
  handle(FieldConfiguration_Get, ({ params, services }) => services.fieldConfiguration.get(params.fieldName)),
  handle(FieldConfiguration_Create, ({ body, services, by }) => services.fieldConfiguration.create(body, by)),
  handle(FieldConfiguration_Update, ({ body, services, by }) => services.fieldConfiguration.update(body, by)),
  handle(FieldConfiguration_Delete, ({ params, services, by }) =>
    services.fieldConfiguration.delete(params.fieldName, by),
  ),
];
