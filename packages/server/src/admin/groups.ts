import {
  Groups_DeleteGroup,
  Groups_DeleteGroups,
  Groups_GetAll,
  Groups_GetAllFilter,
  Groups_GetGroup,
  Groups_PostGroup,
  Groups_PutGroup,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const groupHandlers = [
  handle(Groups_GetAll, ({ list, services }) => services.groups.list(list)),
  handle(Groups_GetAllFilter, ({ list, services }) => services.groups.list(list)),
  handle(Groups_GetGroup, ({ params, services }) => services.groups.get(params.groupName)),
  handle(Groups_PostGroup, ({ body, services, by }) => services.groups.create(body, by)),
  handle(Groups_PutGroup, ({ body, services, by }) => services.groups.update(body, by)),
  handle(Groups_DeleteGroup, ({ params, services, by }) => services.groups.delete(params.groupName, by)),
  handle(Groups_DeleteGroups, ({ body, services, by }) => services.groups.deleteMany(body, by)),
];
