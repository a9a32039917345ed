import { Command } from 'commander';
import { groupInfo } from '../../catalog/groups.js';
import { operationHelp } from '../../catalog/help.js';
import type { OpInfo } from '../../catalog/types.js';
import { addListOptions, queryFrom } from '../../catalog-commands.js';
import { contextOf } from '../../context.js';

/** `lockedusers list`: none locked is an empty list (exit 0), not the API's 404. */
export function lockedUsersListCommand(op: OpInfo | undefined): Command {
  const command = new Command('list').description('list users locked out by failed sign-ins');
  if (!op) return command;
  addListOptions(command, op)
    .addHelpText('after', operationHelp(op))
    .action(async (options: Record<string, unknown>, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { runOperation } = await import('../../operation.js');
      await runOperation(
        ctx,
        op,
        { params: {}, query: queryFrom(op, options), all: options.all === true, emptyListOk: true },
        { columns: groupInfo.lockedusers.columns, empty: 'no locked users' },
      );
    });
  return command;
}
