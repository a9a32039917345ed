import { Command } from 'commander';
import { operations } from '../catalog/data.js';
import type { OpInfo } from '../catalog/types.js';
import { contextOf } from '../context.js';

/** The command of an operation, as a person types it: `idsvc users get <userId>`. */
export function commandLine(op: OpInfo): string {
  return ['idsvc', op.cli.group, op.cli.action, ...op.params.map((p) => `<${p.name}>`)].join(' ');
}

/** `idsvc ops`: every operation with its method, path and command. */
export function opsCommand(): Command {
  return new Command('ops')
    .description('list every operation: operationId, method, path and command')
    .argument('[search]', 'only operations whose id, path or command contains this (case-insensitive)')
    .action(async (search: string | undefined, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const needle = search?.toLowerCase();
      const rows = operations
        .map((op) => ({
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          command: commandLine(op),
          role: op.role,
        }))
        .filter((r) => !needle || [r.operationId, r.path, r.command].some((t) => t.toLowerCase().includes(needle)));
      const { printData } = await import('../output/print.js');
      await printData(rows, ctx.out, {
        columns: ['operationId', 'method', 'path', 'command'],
        empty: 'no operation matches',
      });
    });
}
