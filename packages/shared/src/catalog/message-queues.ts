import { z } from 'zod';
import { MessageQueue, MessageQueueInput, Name } from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'MessageQueues';
const group = 'messagequeues';
const sortable = ['displayName', 'queueName'];
const nameParams = z.object({ displayName: Name });

export const MessageQueues_GetAll = op({
  operationId: 'MessageQueues_GetAll',
  method: 'GET',
  path: '/api/rest/v2/messagequeues',
  summary: 'List message queues.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'displayName' },
  response: z.array(MessageQueue),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const MessageQueues_PostMessageQueue = op({
  operationId: 'MessageQueues_PostMessageQueue',
  method: 'POST',
  path: '/api/rest/v2/messagequeues',
  summary: 'Create a message queue.',
  tag,
  role: 'Administrator',
  body: MessageQueueInput,
  response: MessageQueue,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const MessageQueues_PutMessageQueue = op({
  operationId: 'MessageQueues_PutMessageQueue',
  method: 'PUT',
  path: '/api/rest/v2/messagequeues',
  summary: 'Update a message queue, found by displayName.',
  tag,
  role: 'Administrator',
  body: MessageQueueInput,
  response: MessageQueue,
  statuses: statuses(400, 404),
  cli: { group, action: 'update' },
});

export const MessageQueues_GetAllFilter = op({
  operationId: 'MessageQueues_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/messagequeues/.filter',
  summary: 'List message queues matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'displayName' },
  response: partialList(MessageQueue),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const MessageQueues_GetMessageQueue = op({
  operationId: 'MessageQueues_GetMessageQueue',
  method: 'GET',
  path: '/api/rest/v2/messagequeues/{displayName}',
  summary: 'Get a message queue by displayName.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: MessageQueue,
  statuses: statuses(400, 404),
  cli: { group, action: 'get' },
});

export const MessageQueues_DeleteMessageQueue = op({
  operationId: 'MessageQueues_DeleteMessageQueue',
  method: 'DELETE',
  path: '/api/rest/v2/messagequeues/{displayName}',
  summary: 'Delete a message queue (success also when it does not exist).',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const messageQueueOperations = [
  MessageQueues_GetAll,
  MessageQueues_PostMessageQueue,
  MessageQueues_PutMessageQueue,
  MessageQueues_GetAllFilter,
  MessageQueues_GetMessageQueue,
  MessageQueues_DeleteMessageQueue,
] as const;
