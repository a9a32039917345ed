/** Who makes a change and under which request: recorded in the audit trail. */
export interface WriteContext {
  actor: string;
  requestId?: string;
}

export const systemWrite: WriteContext = { actor: 'system' };
