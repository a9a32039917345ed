import { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `idsvc logout`: revokes the profile's refresh token (best effort) and forgets the profile. */
export function logoutCommand(): Command {
  return new Command('logout')
    .description('sign out: revoke the refresh token and remove the profile')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { cliEnv } = await import('../../env.js');
      const store = await import('../../config/store.js');
      const config = store.readConfig();
      const name = ctx.globals.profile ?? cliEnv().profile ?? config.current ?? store.defaultProfileName;
      const profile = config.profiles[name];
      if (!profile) {
        ctx.info(`not logged in (no profile ${name})`);
        return;
      }
      if (profile.refreshToken) {
        const { revokeToken } = await import('../../client/oauth.js');
        await revokeToken(profile.url, profile.clientId, profile.refreshToken, ctx.trace);
      }
      await store.withConfigLock(async () => {
        store.changeConfigLocked((c) => {
          delete c.profiles[name];
          if (c.current === name) c.current = Object.keys(c.profiles)[0];
        });
        store.writeCachedToken(`profile:${name}`, undefined);
      });
      ctx.info(`${ctx.err.green('✓')} logged out of ${profile.url} (profile ${name} removed)`);
    });
}
