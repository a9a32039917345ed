import { z } from 'zod';
import { Description, Name } from './common.js';

/** A message queue that events are published to. */
export const MessageQueue = z.object({
  displayName: z.string(),
  queueName: z.string(),
  description: z.string().nullable(),
});
export type MessageQueue = z.infer<typeof MessageQueue>;

export const MessageQueueInput = z.object({
  displayName: Name,
  queueName: Name,
  description: Description.nullable().optional(),
});
export type MessageQueueInput = z.infer<typeof MessageQueueInput>;
