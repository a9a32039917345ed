import { Command } from 'commander';
import { contextOf } from '../../context.js';

/**
 * `users lock <user…>`: the API has no manual lockout (a lockout follows failed passwords), so locking deactivates
 * the user: every sign-in is refused until `users unlock`.
 */
export function usersLockCommand(): Command {
  return new Command('lock')
    .description('stop users from signing in (deactivates them; undo with users unlock)')
    .argument('<users...>', 'user ids (GUID) or userNames')
    .addHelpText(
      'after',
      '\nOperation: Users_PatchUppdating (PATCH /api/rest/v2/users/{userId}) setting active to false',
    )
    .action(async (users: string[], _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = await ctx.api();
      const { findUser } = await import('./resolve.js');
      const { forEachArgument } = await import('../each.js');
      await forEachArgument(ctx, users, async (arg) => {
        const user = await findUser(api, arg);
        if (user.active === false) {
          ctx.info(`user ${user.userName} is locked already (inactive)`);
          return;
        }
        await api.call('PATCH', `/api/rest/v2/users/${user.id}`, {
          body: [{ op: 'replace', path: 'active', value: false }],
        });
        ctx.info(`${ctx.err.green('✓')} locked user ${user.userName}: inactive, sign-in refused`);
      });
    });
}

/** `users unlock <user…>`: clears a lockout from failed passwords and reactivates an inactive (locked) user. */
export function usersUnlockCommand(): Command {
  return new Command('unlock')
    .description('let users sign in again: clear a lockout after failed passwords, and reactivate')
    .argument('<users...>', 'user ids (GUID) or userNames')
    .addHelpText(
      'after',
      `
Operations: Users_Patch (PATCH /api/rest/v2/lockedusers) for a lockout, Users_PatchUppdating for an inactive user.
A user who is neither locked out nor inactive is left as is (exit 0).`,
    )
    .action(async (users: string[], _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = await ctx.api();
      const { findUser } = await import('./resolve.js');
      const { forEachArgument } = await import('../each.js');
      await forEachArgument(ctx, users, async (arg) => {
        const user = await findUser(api, arg);
        const done: string[] = [];
        if (user.locked) {
          await api.call('PATCH', '/api/rest/v2/lockedusers', { body: { userId: user.id } });
          done.push('lockout cleared');
        }
        if (user.active === false) {
          await api.call('PATCH', `/api/rest/v2/users/${user.id}`, {
            body: [{ op: 'replace', path: 'active', value: true }],
          });
          done.push('reactivated');
        }
        ctx.info(
          done.length
            ? `${ctx.err.green('✓')} unlocked user ${user.userName}: ${done.join(', ')}`
            : `user ${user.userName} is not locked`,
        );
      });
    });
}
