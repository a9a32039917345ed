import { catalog } from '@idsvc/shared';
import { claimDefinitionHandlers } from './claim-definitions.js';
import { claimSetHandlers } from './claim-sets.js';
import { groupHandlers } from './groups.js';
import type { BoundHandler } from './handler.js';
import { lockedUserHandlers } from './locked-users.js';
import { organizationHandlers } from './organizations.js';
import { notImplemented } from './registry.js';
import { userExtraHandlers } from './user-extras.js';
import { userHandlers } from './users.js';

/** Handlers of the catalog's operations, by operationId. */
const written: BoundHandler[] = [
  ...claimDefinitionHandlers,
  ...claimSetHandlers,
  ...groupHandlers,
  ...organizationHandlers,
  ...userHandlers,
  ...lockedUserHandlers,
  ...userExtraHandlers,
];

/** One handler per catalog operation; an operation without a written handler answers 501 not_implemented. */
export function adminHandlers(): BoundHandler[] {
  const byId = new Map(written.map((b) => [b.op.operationId, b]));
  return catalog.map((op) => byId.get(op.operationId) ?? notImplemented(op));
}

/** Operations that still answer 501. */
export function unimplementedOperations(): string[] {
  const ids = new Set(written.map((b) => b.op.operationId));
  return catalog.filter((op) => !ids.has(op.operationId)).map((op) => op.operationId);
}
