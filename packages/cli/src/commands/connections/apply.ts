import { Command } from 'commander';
import { collect } from '../../catalog-commands.js';
import { contextOf } from '../../context.js';
import type { ApplyFlags } from '../apply.js';

/** `connections apply -f FILE|DIR`: `idsvc apply` for connections; plain connection objects need no {kind, spec}. */
export function connectionsApplyCommand(): Command {
  return new Command('apply')
    .description('create or update connections to match JSON/YAML files (idempotent)')
    .requiredOption('-f, --file <path>', 'connection file or folder (- for stdin); repeatable', collect)
    .option('--dry-run', 'print the plan and change nothing')
    .option('--prune', 'also delete connections no file names (never UsernamePassword or idsvc-cli)')
    .option('-y, --yes', 'do not ask before deleting (--prune)')
    .addHelpText(
      'after',
      `
Each file holds connection objects as the API takes them (Connections_PostConnection's body), or
{kind: Connection, spec}; several per YAML file with ---, or a JSON array. See idsvc apply --help.`,
    )
    .action(async (flags: ApplyFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { loadDocuments } = await import('../../apply/documents.js');
      const { kindNamed } = await import('../../apply/kinds.js');
      const { apply } = await import('../../apply/run.js');
      await apply(ctx, await loadDocuments(flags.file ?? [], kindNamed('Connection')), flags);
    });
}
