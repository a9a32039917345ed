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
  handle(Users_Post, async ({ body, query, services, by }) => {
    const user = await services.users.create(body, by);
    if (query.sendPasswordEmailToUser) await services.selfService.mailPasswordLinks([user], by);
    return user;
  }),
  handle(Users_Put, ({ body, services, by }) => services.users.update(body, by)),
  handle(Users_PatchUppdating, ({ params, body, services, by }) => services.users.patch(params.userId, body, by)),
  handle(Users_Delete, ({ params, services, by }) => services.users.delete(params.userId, by)),
  handle(Users_PostMassUser, async ({ body, query, services, by }) => {
    const created = await services.users.createMany(body, by);
    if (query.sendPasswordEmailToUser) await services.selfService.mailPasswordLinks(created, by);
    return created;
  }),
  handle(Users_PutMassUser, ({ body, services, by }) => services.users.updateMany(body, by)),
  handle(Users_PutMassStatus, ({ body, services, by }) => services.users.setStatuses(body, by)),
  handle(Users_DeleteMassUser, ({ body, services, by }) => services.users.deleteMany(body, by)),
];
