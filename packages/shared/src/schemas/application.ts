import { z } from 'zod';

/** An application relying on the service, as listed by GET /applications. */
export const Application = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  /** The protocol connection the application signs in through. */
  protocolConnectionName: z.string().nullable().optional(),
});
export type Application = z.infer<typeof Application>;
