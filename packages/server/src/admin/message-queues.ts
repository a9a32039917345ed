import {
  MessageQueues_DeleteMessageQueue,
  MessageQueues_GetAll,
  MessageQueues_GetAllFilter,
  MessageQueues_GetMessageQueue,
  MessageQueues_PostMessageQueue,
  MessageQueues_PutMessageQueue,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const messageQueueHandlers = [
  handle(MessageQueues_GetAll, ({ list, services }) => services.messageQueues.list(list)),
  handle(MessageQueues_GetAllFilter, ({ list, services }) => services.messageQueues.list(list)),
  handle(MessageQueues_GetMessageQueue, ({ params, services }) => services.messageQueues.get(params.displayName)),
  handle(MessageQueues_PostMessageQueue, ({ body, services, by }) => services.messageQueues.create(body, by)),
  handle(MessageQueues_PutMessageQueue, ({ body, services, by }) => services.messageQueues.update(body, by)),
  // Spec rule 1: deleting a missing message queue succeeds.
  handle(MessageQueues_DeleteMessageQueue, ({ params, services, by }) =>
    services.messageQueues.delete(params.displayName, by, { missingOk: true }),
  ),
];
