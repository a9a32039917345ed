import {
  Users_Delete,
  Users_DeleteMassUser,
  Users_Get,
  Users_Get_Existing,
  Users_GetAll,
  Users_GetAllFilter,
  Users_PatchUppdating,
  Users_Post,
  Users_PostMassUser,
  Users_Put,
  Users_PutMassStatus,
  Users_PutMassUser,
  Users_SearchUsers,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const userHandlers = [
  handle(Users_GetAll, ({ list, query, services }) => services.users.listAll(list, query)),
  handle(Users_GetAllFilter, ({ list, services }) => services.users.list(list)),
  handle(Users_SearchUsers, ({ body, services }) => services.users.search(body)),
  handle(Users_Get_Existing, ({ params, services }) => services.users.get(params.userId)),
  handle(Users_Get, ({ principal, services }) => services.users.myProfile(principal.userId)),
  handle(Users_Post, ({ body, services, by }) => services.users.create(body, by)),
  handle(Users_Put, ({ body, services, by }) => services.users.update(body, by)),
  handle(Users_PatchUppdating, ({ params, body, services, by }) => services.users.patch(params.userId, body, by)),
  handle(Users_Delete, ({ params, services, by }) => services.users.delete(params.userId, by)),
  handle(Users_PostMassUser, ({ body, services, by }) => services.users.createMany(body, by)),
  handle(Users_PutMassUser, ({ body, services, by }) => services.users.updateMany(body, by)),
  handle(Users_PutMassStatus, ({ body, services, by }) => services.users.setStatuses(body, by)),
  handle(Users_DeleteMassUser, ({ body, services, by }) => services.users.deleteMany(body, by)),
];
