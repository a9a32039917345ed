import { Command } from 'commander';
import { operationHelp } from '../../catalog/help.js';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';

/** `lockedusers unlock <user…>`: Users_Patch per user (a user who is not locked is the API's 409, exit 4). */
export function lockedUsersUnlockCommand(op: OpInfo | undefined): Command {
  const command = new Command('unlock')
    .description('unlock users locked out by failed sign-ins')
    .argument('<users...>', 'user ids (GUID) or userNames');
  if (op) command.addHelpText('after', operationHelp(op));
  return command.action(async (users: string[], _options: unknown, cmd: Command) => {
    const ctx = contextOf(cmd);
    const api = await ctx.api();
    const { findUser, guidPattern } = await import('../users/resolve.js');
    const { forEachArgument } = await import('../each.js');
    await forEachArgument(ctx, users, async (arg) => {
      const id = guidPattern.test(arg) ? arg : (await findUser(api, arg)).id;
      await api.call('PATCH', '/api/rest/v2/lockedusers', { body: { userId: id } });
      ctx.info(`${ctx.err.green('✓')} unlocked ${arg}`);
    });
  });
}
