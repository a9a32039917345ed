import type { AppContext } from '../context.js';
import { authenticatorService } from './authenticators.js';
import { claimDefinitionService } from './claim-definitions.js';
import { claimSetService } from './claim-sets.js';
import { consentService } from './consents.js';
import { groupService } from './groups.js';
import { organizationService } from './organizations.js';
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
    users: userService(db, (rows) => ctx.database.noteWrites(rows)),
    userTokens: userTokenService(db),
    consents: consentService(db),
    authenticators: authenticatorService(db, ctx.box),
  };
}

export type Services = ReturnType<typeof createServices>;
