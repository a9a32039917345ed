import { catalog, catalogExtensions } from '@idsvc/shared';
import { applicationHandlers } from './applications.js';
import { attributeServiceHandlers } from './attribute-services.js';
import { certificateHandlers } from './certificates.js';
import { claimDefinitionHandlers } from './claim-definitions.js';
import { claimSetHandlers } from './claim-sets.js';
import { communicationHandlers } from './communication.js';
import { connectionHandlers } from './connections.js';
import { correlationErrorHandlers } from './correlation-errors.js';
import { customContentHandlers } from './custom-contents.js';
import { emailConfigurationHandlers } from './email-configuration.js';
import { fieldConfigurationHandlers } from './field-configuration.js';
import { groupHandlers } from './groups.js';
import type { BoundHandler } from './handler.js';
import { lockedUserHandlers } from './locked-users.js';
import { messageQueueHandlers } from './message-queues.js';
import { organizationHandlers } from './organizations.js';
import { notImplemented } from './registry.js';
import { selfServiceHandlers } from './self-service.js';
import { sharedSettingHandlers } from './shared-settings.js';
import { smsConfigurationHandlers } from './sms-configuration.js';
import { systemSetupHandlers } from './system-setup.js';
import { transformationHandlers } from './transformations.js';
import { userExtraHandlers } from './user-extras.js';
import { userHandlers } from './users.js';

/** Handlers of the catalog's operations, by operationId. */
const written: BoundHandler[] = [
  ...certificateHandlers,
  ...claimDefinitionHandlers,
  ...claimSetHandlers,
  ...connectionHandlers,
  ...groupHandlers,
  ...organizationHandlers,
  ...userHandlers,
  ...lockedUserHandlers,
  ...userExtraHandlers,
  ...emailConfigurationHandlers,
  ...smsConfigurationHandlers,
  ...communicationHandlers,
  ...selfServiceHandlers,
  ...attributeServiceHandlers,
  ...messageQueueHandlers,
  ...sharedSettingHandlers,
  ...customContentHandlers,
  ...systemSetupHandlers,
  ...applicationHandlers,
  ...fieldConfigurationHandlers,
  ...correlationErrorHandlers,
  ...transformationHandlers,
];

/** The catalog's operations and the extensions beyond the specification (field configuration, correlation error). */
const served = [...catalog, ...catalogExtensions];

/** One handler per served operation; an operation without a written handler answers 501 not_implemented. */
export function adminHandlers(): BoundHandler[] {
  const byId = new Map(written.map((b) => [b.op.operationId, b]));
  return served.map((op) => byId.get(op.operationId) ?? notImplemented(op));
}

/** Operations that still answer 501. */
export function unimplementedOperations(): string[] {
  const ids = new Set(written.map((b) => b.op.operationId));
  return served.filter((op) => !ids.has(op.operationId)).map((op) => op.operationId);
}
