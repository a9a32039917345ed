import type { MessageQueue, MessageQueueInput } from '@idsvc/shared';
import type { Db } from '../db/client.js';
import { messageQueues } from '../db/schema/index.js';
import { type DocumentResource, documentService } from './documents.js';

/**
 * Message queues, keyed by displayName; queueName names the queue at the broker. Nothing refers to a queue yet,
 * so none is ever "in use": PUT answers 404 only for a missing one, and DELETE always succeeds.
 */
export const messageQueueResource: DocumentResource<MessageQueue, MessageQueueInput> = {
  table: messageQueues,
  label: 'message queue',
  keyField: 'displayName',
  fields: {
    displayName: { type: 'string' },
    queueName: { type: 'string' },
    description: { type: 'string' },
  },
  keyOf: (input) => input.displayName.trim(),
  toData: (input) => ({ queueName: input.queueName.trim(), description: input.description ?? null }),
  toApi: (row) => ({
    displayName: row.name,
    queueName: String(row.data.queueName ?? ''),
    description: typeof row.data.description === 'string' ? row.data.description : null,
  }),
};

export function messageQueueService(db: Db) {
  return documentService(db, messageQueueResource);
}

export type MessageQueueService = ReturnType<typeof messageQueueService>;
