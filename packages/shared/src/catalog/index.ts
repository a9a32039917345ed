import { applicationOperations } from './applications.js';
import { attributeServiceOperations } from './attribute-services.js';
import { authContextClassOperations } from './auth-context-classes.js';
import { certificateOperations } from './certificates.js';
import { claimDefinitionOperations } from './claim-definitions.js';
import { claimSetOperations } from './claim-sets.js';
import { communicationOperations } from './communication.js';
import { connectionOperations } from './connections.js';
import { customContentOperations } from './custom-contents.js';
import { emailConfigurationOperations } from './email-configuration.js';
import { groupOperations } from './groups.js';
import { lockedUserOperations } from './locked-users.js';
import { messageQueueOperations } from './message-queues.js';
import type { OperationDef } from './op.js';
import { organizationOperations } from './organizations.js';
import { selfServiceOperations } from './self-service.js';
import { sharedSettingOperations } from './shared-settings.js';
import { smsConfigurationOperations } from './sms-configuration.js';
import { systemSetupOperations } from './system-setup.js';
import { transformationOperations } from './transformations.js';
import { userOperations } from './users.js';

export * from './applications.js';
export * from './attribute-services.js';
export * from './auth-context-classes.js';
export * from './certificates.js';
export * from './claim-definitions.js';
export * from './claim-sets.js';
export * from './communication.js';
export * from './connections.js';
export * from './custom-contents.js';
export * from './email-configuration.js';
export * from './extensions.js';
export * from './groups.js';
export * from './locked-users.js';
export * from './message-queues.js';
export * from './op.js';
export * from './organizations.js';
export * from './self-service.js';
export * from './shared-settings.js';
export * from './sms-configuration.js';
export * from './system-setup.js';
export * from './transformations.js';
export * from './user-credentials.js';
export * from './users.js';

/** Every admin operation, in the order of the specification's operations.tsv. */
export const catalog: readonly OperationDef[] = [
  ...certificateOperations,
  ...claimDefinitionOperations,
  ...connectionOperations,
  ...groupOperations,
  ...organizationOperations,
  ...systemSetupOperations,
  ...transformationOperations,
  ...userOperations,
  ...lockedUserOperations,
  ...attributeServiceOperations,
  ...messageQueueOperations,
  ...sharedSettingOperations,
  ...customContentOperations,
  ...claimSetOperations,
  ...selfServiceOperations,
  ...communicationOperations,
  ...emailConfigurationOperations,
  ...smsConfigurationOperations,
  ...applicationOperations,
  ...authContextClassOperations,
];

/** The operations by operationId. */
export const operationsById: Readonly<Record<string, OperationDef>> = Object.fromEntries(
  catalog.map((operation) => [operation.operationId, operation]),
);
