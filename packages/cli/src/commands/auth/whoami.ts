import { Command } from 'commander';
import { contextOf } from '../../context.js';
import { CliError, exitCodes } from '../../errors.js';

/** `idsvc whoami`: the server, profile, identity and role of the credentials in use (checked with the server). */
export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('show who the credentials in use belong to, and where')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const target = await ctx.target();
      if (!target.auth) {
        throw new CliError(
          `not logged in to ${target.url}: run idsvc login, or set IDSVC_TOKEN or IDSVC_CLIENT_ID/IDSVC_CLIENT_SECRET`,
          exitCodes.auth,
        );
      }
      const { jwtPayload } = await import('../../client/oauth.js');
      const token = await target.auth.token();
      const claims = jwtPayload(token) ?? {};
      const api = await ctx.api();
      const me = await api.raw('GET', '/api/rest/v2/users/myprofile');
      if (me.status === 401) {
        const { apiError } = await import('../../client/http.js');
        throw apiError(me);
      }
      const user = me.status === 200 ? (me.body as { userName?: string; id?: string }) : undefined;
      const role = claims['urn:identify:rest-api:role'];
      const exp = typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : undefined;
      const { printData } = await import('../../output/print.js');
      await printData(
        {
          url: target.url,
          profile: target.profileName ?? null,
          credentials: target.source,
          userName: user?.userName ?? null,
          userId:
            user?.id ?? (typeof claims['urn:internal:userid'] === 'string' ? claims['urn:internal:userid'] : null),
          clientId: typeof claims.client_id === 'string' ? claims.client_id : (target.profile?.clientId ?? null),
          roles: role === undefined ? [] : [role].flat(),
          scope: typeof claims.scope === 'string' ? claims.scope : null,
          tokenExpiresAt: exp ?? null,
        },
        ctx.out,
      );
    });
}
