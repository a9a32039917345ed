import {
  Applications_GetAll,
  AuthenticationContextMethodClass_Create,
  AuthenticationContextMethodClass_GetAll,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const applicationHandlers = [
  handle(Applications_GetAll, ({ list, services }) => services.applications.list(list)),
  handle(AuthenticationContextMethodClass_GetAll, ({ list, services }) => services.authContextClasses.list(list)),
  handle(AuthenticationContextMethodClass_Create, ({ body, services, by }) =>
    services.authContextClasses.create(body, by),
  ),
];
