import {
  SystemSetup_CleanUpSessionData,
  SystemSetup_GetLicense,
  SystemSetup_GetSystemSetup,
  SystemSetup_PutSystemSetup,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const systemSetupHandlers = [
  handle(SystemSetup_GetSystemSetup, ({ services }) => services.systemSetup.get()),
  handle(SystemSetup_PutSystemSetup, ({ body, services, by }) => services.systemSetup.put(body, by)),
  handle(SystemSetup_CleanUpSessionData, ({ body, services, by }) => services.systemSetup.cleanUpSessionData(body, by)),
  handle(SystemSetup_GetLicense, ({ services }) => services.systemSetup.license()),
];
