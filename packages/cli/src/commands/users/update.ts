import { Command } from 'commander';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';
import { UsageError } from '../../errors.js';
import { addUserFlags, type UserFlags } from './flags.js';

/** `users update <user>`: changes the given fields only. */
export function usersUpdateCommand(op: OpInfo | undefined): Command {
  const command = new Command('update').description('change fields of a user (others keep their values)');
  addUserFlags(command.argument('<user>', 'user id (GUID) or userName'), true)
    .addHelpText('after', op ? `\nOperation: ${op.operationId} (${op.method} ${op.path})` : '')
    .action(async (user: string, flags: UserFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { userBody } = await import('./flags.js');
      const body = await userBody(flags);
      const api = await ctx.api();
      const { findUser } = await import('./resolve.js');
      const current = await findUser(api, user);
      const add = flags.addGroup ?? [];
      const remove = (flags.removeGroup ?? []).map((g) => g.toLowerCase());
      if (add.length || remove.length) {
        const groups = (body.groups as string[] | undefined) ?? current.groups ?? [];
        const kept = groups.filter((g) => !remove.includes(g.toLowerCase()));
        for (const g of add) if (!kept.some((k) => k.toLowerCase() === g.toLowerCase())) kept.push(g);
        body.groups = kept;
      }
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give a flag such as --email');
      const updated = await api.call<Record<string, unknown>>('PUT', '/api/rest/v2/users', {
        body: { ...body, id: current.id },
      });
      ctx.info(`${ctx.err.green('✓')} updated user ${String(updated.body.userName)}`);
      const { printData } = await import('../../output/print.js');
      await printData(updated.body, ctx.out);
    });
  return command;
}
