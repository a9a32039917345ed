import { Command } from 'commander';
import { groupInfo } from '../../catalog/groups.js';
import { operationHelp } from '../../catalog/help.js';
import type { OpInfo } from '../../catalog/types.js';
import { addListOptions, operationOf, queryFrom } from '../../catalog-commands.js';
import { contextOf } from '../../context.js';

/** `connections list`: Connections_GetAll, or Connections_GetAllFilter with --filter/--attributes. */
export function connectionsListCommand(op: OpInfo | undefined): Command {
  const all = op ?? operationOf('connections', 'list');
  const filtered = operationOf('connections', 'filter');
  const command = new Command('list').description('list connections; --filter takes a SCIM filter');
  return addListOptions(command, filtered)
    .addHelpText('after', `\nOperations: ${all.operationId} (GET ${all.path}), with --filter ${filtered.operationId}`)
    .action(async (options: Record<string, unknown>, cmd: Command) => {
      const ctx = contextOf(cmd);
      const chosen = options.filter !== undefined || options.attributes !== undefined ? filtered : all;
      const { runOperation } = await import('../../operation.js');
      await runOperation(
        ctx,
        chosen,
        { params: {}, query: queryFrom(chosen, options), all: options.all === true, emptyListOk: true },
        { columns: groupInfo.connections.columns, empty: 'no connections' },
      );
    });
}

/** `connections get <name>` (client secrets are never shown). */
export function connectionsGetCommand(op: OpInfo | undefined): Command {
  const get = op ?? operationOf('connections', 'get');
  return new Command('get')
    .description('show a connection with its configuration')
    .argument('<connectionName>', 'connection name')
    .addHelpText('after', operationHelp(get))
    .action(async (name: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { runOperation } = await import('../../operation.js');
      await runOperation(ctx, get, { params: { connectionName: name }, query: {} });
    });
}
