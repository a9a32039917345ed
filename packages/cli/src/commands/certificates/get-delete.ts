import { Command, Option } from 'commander';
import { operationHelp } from '../../catalog/help.js';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';

/** `certificates get <thumbprint>`: colons, spaces and lower case are accepted. */
export function certificatesGetCommand(op: OpInfo | undefined): Command {
  const command = new Command('get')
    .description('show a certificate')
    .argument('<thumbprint>', 'SHA-1 thumbprint (colons, spaces and lower case are fine)')
    .addOption(
      new Option('--store-name <store>', 'store to look in').choices([
        'DatabaseStore',
        'CurrentUser',
        'LocalMachine',
        'All',
      ]),
    );
  if (op) command.addHelpText('after', operationHelp(op));
  return command.action(async (thumbprint: string, options: { storeName?: string }, cmd: Command) => {
    const ctx = contextOf(cmd);
    const { normalizeThumbprint } = await import('./read.js');
    const api = await ctx.api();
    const response = await api.call(
      'GET',
      `/api/rest/v2/certificates/${encodeURIComponent(normalizeThumbprint(thumbprint))}`,
      { query: { storeName: options.storeName } },
    );
    const { printData } = await import('../../output/print.js');
    await printData(response.body, ctx.out);
  });
}

/** `certificates delete <thumbprint…>`: several at once; `--force` deletes certificates in use. */
export function certificatesDeleteCommand(op: OpInfo | undefined): Command {
  const command = new Command('delete')
    .description('delete certificates')
    .argument('<thumbprints...>', 'SHA-1 thumbprints')
    .addOption(new Option('--store-name <store>', 'store to delete from').choices(['DatabaseStore', 'CurrentUser']))
    .option('--force', 'delete certificates that are in use too (forceDeleteInUse)');
  if (op) command.addHelpText('after', operationHelp(op));
  return command.action(
    async (thumbprints: string[], options: { storeName?: string; force?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { normalizeThumbprint } = await import('./read.js');
      const { forEachArgument } = await import('../each.js');
      const api = await ctx.api();
      await forEachArgument(ctx, thumbprints, async (raw) => {
        const thumbprint = normalizeThumbprint(raw);
        await api.call('DELETE', `/api/rest/v2/certificates/${encodeURIComponent(thumbprint)}`, {
          query: { storeName: options.storeName, forceDeleteInUse: options.force ? 'true' : undefined },
        });
        ctx.info(`${ctx.err.green('✓')} deleted certificate ${thumbprint}`);
      });
    },
  );
}
