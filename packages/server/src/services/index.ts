import type { AppContext } from '../context.js';
import { notifySessionsEnded } from '../runtime/backchannel-logout.js';
import { applicationService } from './applications.js';
import { attributeServiceService } from './attribute-services.js';
import { authContextClassService } from './auth-context-classes.js';
import { authenticatorService } from './authenticators.js';
import { certificateService } from './certificates.js';
import { claimDefinitionService } from './claim-definitions.js';
import { claimSetService } from './claim-sets.js';
import { connectionService } from './connections.js';
import { consentService } from './consents.js';
import { correlationErrorService } from './correlation-errors.js';
import { customContentService } from './custom-contents.js';
import { fieldConfigurationService } from './field-configuration.js';
import { groupService } from './groups.js';
import { messageQueueService } from './message-queues.js';
import { messagingServices } from './messaging.js';
import { organizationService } from './organizations.js';
import { sharedSettingService } from './shared-settings.js';
import { systemSetupService } from './system-setup.js';
import { transformationService } from './transformations.js';
import { userTokenService } from './user-tokens.js';
import { userService } from './users/index.js';

/** Every service, made once at start over the shared context. */
export function createServices(ctx: AppContext) {
  const { db } = ctx;
  return {
    groups: groupService(db),
    claimDefinitions: claimDefinitionService(db),
    claimSets: claimSetService(db),
    organizations: organizationService(db),
    // Disabling or deleting users signs them out: the clients of their sessions are told.
    users: userService(db, {
      noteWrites: (rows) => ctx.database.noteWrites(rows),
      sessionsEnded: (ended) => notifySessionsEnded(ctx, ended),
    }),
    userTokens: userTokenService(db),
    consents: consentService(db),
    authenticators: authenticatorService(db, ctx.box),
    certificates: certificateService(ctx),
    ...messagingServices(ctx),
    connections: connectionService(db, ctx.box),
    attributeServices: attributeServiceService(db),
    messageQueues: messageQueueService(db),
    sharedSettings: sharedSettingService(db),
    customContents: customContentService(db),
    // Removing live sessions signs people out: their clients are told (runtime/backchannel-logout.ts).
    systemSetup: systemSetupService(db, { sessionsEnded: (ended) => notifySessionsEnded(ctx, ended) }),
    applications: applicationService(db),
    authContextClasses: authContextClassService(db),
    fieldConfiguration: fieldConfigurationService(db),
    correlationErrors: correlationErrorService(db),
    transformations: transformationService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
