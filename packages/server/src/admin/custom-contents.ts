import { CustomContents_Delete, CustomContents_Get, CustomContents_Update } from '@idsvc/shared';
import { handle } from './handler.js';

export const customContentHandlers = [
  handle(CustomContents_Get, ({ params, services }) => services.customContents.get(params.name)),
  handle(CustomContents_Update, ({ params, body, services, by }) =>
    services.customContents.update(params.name, body, by),
  ),
  handle(CustomContents_Delete, ({ params, services, by }) => services.customContents.reset(params.name, by)),
];
