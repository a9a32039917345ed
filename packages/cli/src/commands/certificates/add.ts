import { Command, Option } from 'commander';
import type { OpInfo } from '../../catalog/types.js';
import { contextOf } from '../../context.js';

const columns = ['thumbprint', 'subject', 'validTo'];

/** `certificates add FILE…`: uploads each certificate (PEM bundles, DER or base64), going on past failures. */
export function certificatesAddCommand(op: OpInfo | undefined): Command {
  return new Command('add')
    .description('upload certificates from files: PEM (bundles too), DER or base64; - for stdin')
    .argument('<files...>', 'certificate files')
    .addOption(
      new Option('--store-name <store>', 'store to add to')
        .choices(['DatabaseStore', 'CurrentUser'])
        .default('DatabaseStore'),
    )
    .addHelpText(
      'after',
      `${op ? `\nOperation: ${op.operationId} (${op.method} ${op.path}), once per certificate` : ''}
Prints the added certificates (thumbprint, subject, validTo); a failed file is reported and the others go on
(exit 7 when only some were added).`,
    )
    .action(async (files: string[], options: { storeName: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { readCertificateFiles } = await import('./read.js');
      const certificates = await readCertificateFiles(files);
      const api = await ctx.api();
      const added: Record<string, unknown>[] = [];
      const { forEachArgument } = await import('../each.js');
      const bySource = new Map(certificates.map((c) => [c.source, c]));
      try {
        await forEachArgument(ctx, [...bySource.keys()], async (source) => {
          const certificate = bySource.get(source)!;
          try {
            const response = await api.call<Record<string, unknown>>('POST', '/api/rest/v2/certificates', {
              query: { storeName: options.storeName },
              body: certificate.base64,
            });
            added.push(response.body);
          } catch (error) {
            if (error instanceof Error) error.message = `${source}: ${error.message}`;
            throw error;
          }
        });
      } finally {
        const { printData } = await import('../../output/print.js');
        if (added.length) await printData(added, ctx.out, { columns });
      }
    });
}
