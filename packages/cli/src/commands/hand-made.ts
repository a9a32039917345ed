import type { HandMade } from '../catalog-commands.js';
import { certificatesAddCommand } from './certificates/add.js';
import { certificatesDeleteCommand, certificatesGetCommand } from './certificates/get-delete.js';
import { connectionsApplyCommand } from './connections/apply.js';
import { connectionsGetCommand, connectionsListCommand } from './connections/list-get.js';
import { lockedUsersListCommand } from './lockedusers/list.js';
import { lockedUsersUnlockCommand } from './lockedusers/unlock.js';
import { usersCreateCommand } from './users/create.js';
import { usersDeleteCommand } from './users/delete.js';
import { usersExportCommand } from './users/export.js';
import { usersGetCommand } from './users/get.js';
import { usersImportCommand } from './users/import.js';
import { usersListCommand } from './users/list.js';
import { usersLockCommand, usersUnlockCommand } from './users/lock.js';
import { usersUpdateCommand } from './users/update.js';

/** Commands made by hand where people spend their time; they replace the generated command of the same name. */
export const handMade: HandMade = {
  users: {
    list: usersListCommand,
    get: usersGetCommand,
    create: usersCreateCommand,
    update: usersUpdateCommand,
    delete: usersDeleteCommand,
    lock: usersLockCommand,
    unlock: usersUnlockCommand,
    import: usersImportCommand,
    export: usersExportCommand,
  },
  lockedusers: { list: lockedUsersListCommand, unlock: lockedUsersUnlockCommand },
  certificates: { add: certificatesAddCommand, get: certificatesGetCommand, delete: certificatesDeleteCommand },
  connections: { list: connectionsListCommand, get: connectionsGetCommand, apply: connectionsApplyCommand },
};
