import { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `users export`: every user (or those a filter selects), as CSV in the import's format by default. */
export function usersExportCommand(): Command {
  return new Command('export')
    .description('export users: CSV in the format users import reads (or -o json|yaml)')
    .option('--filter <scim>', 'only users matching this SCIM filter')
    .addHelpText(
      'after',
      `
The CSV has the columns userName, email, displayName, organization, groups, active, phoneNumber and one
claim:<claimType> column per claim type the users hold; passwords are never exported. Export and import
round-trip: idsvc users export > users.csv; idsvc --url https://other users import users.csv`,
    )
    .action(async (options: { filter?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { exportUsers } = await import('../../import/export.js');
      await exportUsers(ctx, options.filter);
    });
}
