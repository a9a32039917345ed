import { Command, Option } from 'commander';
import { groupInfo } from '../../catalog/groups.js';
import type { OpInfo } from '../../catalog/types.js';
import { addListOptions, operationOf, queryFrom } from '../../catalog-commands.js';
import { contextOf } from '../../context.js';

/** `users list`: Users_GetAll, or Users_GetAllFilter with --filter/--attributes; none is an empty list (exit 0). */
export function usersListCommand(op: OpInfo | undefined): Command {
  const all = op ?? operationOf('users', 'list');
  const filtered = operationOf('users', 'filter');
  const command = new Command('list').description('list users; --filter takes a SCIM filter');
  addListOptions(command, filtered);
  command
    .addOption(new Option('--claim-type <type>', 'only users holding this claim type').conflicts('filter'))
    .addOption(new Option('--value <value>', 'with --claim-type: only this claim value').conflicts('filter'))
    .addHelpText(
      'after',
      `
Operations: ${all.operationId} (GET ${all.path}), with --filter ${filtered.operationId} (GET ${filtered.path})
Examples:
  idsvc users list --filter 'groups eq "Staff" and active eq true' --sort-by displayName
  idsvc users list --claim-type locale --value nl -o csv`,
    )
    .action(async (options: Record<string, unknown>, cmd: Command) => {
      const ctx = contextOf(cmd);
      const useFilter = options.filter !== undefined || options.attributes !== undefined;
      const chosen = useFilter ? filtered : all;
      const { runOperation } = await import('../../operation.js');
      await runOperation(
        ctx,
        chosen,
        { params: {}, query: queryFrom(chosen, options), all: options.all === true, emptyListOk: true },
        { columns: groupInfo.users.columns, empty: 'no users' },
      );
    });
  return command;
}
