import { Command } from 'commander';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';

/** `users delete <user…>`: by id or userName; goes on past failures (exit 7 when only some were deleted). */
export function usersDeleteCommand(op: OpInfo | undefined): Command {
  return new Command('delete')
    .description('delete users, by id or userName')
    .argument('<users...>', 'user ids (GUID) or userNames')
    .addHelpText('after', op ? `\nOperation: ${op.operationId} (${op.method} ${op.path})` : '')
    .action(async (users: string[], _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = await ctx.api();
      const { findUser } = await import('./resolve.js');
      const { forEachArgument } = await import('../each.js');
      await forEachArgument(ctx, users, async (arg) => {
        const user = await findUser(api, arg);
        await api.call('DELETE', `/api/rest/v2/users/${user.id}`);
        ctx.info(`${ctx.err.green('✓')} deleted user ${user.userName} (${user.id})`);
      });
    });
}
