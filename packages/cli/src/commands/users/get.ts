import { Command } from 'commander';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';

/** `users get <user>`: by id or by userName. */
export function usersGetCommand(op: OpInfo | undefined): Command {
  return new Command('get')
    .description('show a user, by id or userName')
    .argument('<user>', 'user id (GUID) or userName')
    .addHelpText(
      'after',
      op ? `\nOperation: ${op.operationId} (GET ${op.path}); a userName is looked up by filter` : '',
    )
    .action(async (user: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { findUser } = await import('./resolve.js');
      const { printData } = await import('../../output/print.js');
      await printData(await findUser(await ctx.api(), user), ctx.out);
    });
}
