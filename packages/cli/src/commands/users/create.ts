import { Command } from 'commander';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';
import { addUserFlags, type UserFlags } from './flags.js';

/** `users create`: a user from flags (or a body), the user name asked for on a terminal when missing. */
export function usersCreateCommand(op: OpInfo | undefined): Command {
  const command = new Command('create').description('create a user');
  addUserFlags(command, false)
    .option('--send-password-email', 'mail the user a link to set a password')
    .addHelpText(
      'after',
      `${op ? `\nOperation: ${op.operationId} (${op.method} ${op.path})` : ''}
Example:
  idsvc users create --user-name ada --email ada@example.com --display-name "Ada L" \\
    --organization Root --group Staff --claim locale=en --password-stdin < pw.txt`,
    )
    .action(async (flags: UserFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { userBody } = await import('./flags.js');
      const body = await userBody(flags);
      if (body.userName === undefined) {
        const { askFor } = await import('../../prompt.js');
        body.userName = await askFor('--user-name', 'User name');
      }
      const api = await ctx.api();
      const created = await api.call<Record<string, unknown>>('POST', '/api/rest/v2/users', {
        query: { sendPasswordEmailToUser: flags.sendPasswordEmail ? 'true' : undefined },
        body,
      });
      ctx.info(`${ctx.err.green('✓')} created user ${String(created.body.userName)} (${String(created.body.id)})`);
      const { printData } = await import('../../output/print.js');
      await printData(created.body, ctx.out);
    });
  return command;
}
