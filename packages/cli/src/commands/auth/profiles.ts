import { Command } from 'commander';
import { contextOf } from '../../context.js';
import { CliError, exitCodes } from '../../errors.js';

/** `idsvc profiles list|use`: the saved logins. */
export function profilesCommand(): Command {
  const group = new Command('profiles').description('saved logins: list them, pick the current one');
  group
    .command('list')
    .description('list the saved profiles')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { readConfig } = await import('../../config/store.js');
      const config = readConfig();
      const rows = Object.entries(config.profiles).map(([name, p]) => ({
        name,
        current: name === config.current,
        url: p.url,
        clientId: p.clientId,
        refreshable: p.refreshToken !== undefined,
      }));
      const { printData } = await import('../../output/print.js');
      await printData(rows, ctx.out, { empty: 'no profiles: run idsvc login' });
    });
  group
    .command('use')
    .description('make a profile the current one')
    .argument('<name>', 'profile name')
    .action(async (name: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { readConfig, updateConfig } = await import('../../config/store.js');
      if (!readConfig().profiles[name]) throw new CliError(`no profile named ${name}`, exitCodes.notFound);
      await updateConfig((config) => {
        config.current = name;
      });
      ctx.info(`current profile: ${name}`);
    });
  return group;
}
