import { Command } from 'commander';
import { operations } from '../catalog/data.js';
import { collect, operationById, settings } from '../catalog-commands.js';
import type { QueryValue } from '../client/http.js';
import { contextOf } from '../context.js';
import { UsageError } from '../errors.js';

/** Operation ids that look like the one asked for (same words in any case), for a usage error. */
function similar(id: string): string[] {
  const words = id
    .toLowerCase()
    .split(/[_\s]+/)
    .filter(Boolean);
  return operations
    .map((o) => o.operationId)
    .filter((o) => words.some((w) => o.toLowerCase().includes(w)))
    .slice(0, 8);
}

/** `idsvc api <operationId>`: any catalog operation by its spec name. */
export function apiCommand(): Command {
  return new Command('api')
    .description('call any operation by its operationId (see idsvc ops)')
    .argument('<operationId>', 'e.g. Users_GetAllFilter')
    .argument('[params...]', 'path parameters, in the order of the path')
    .option('-p, --param <name=value>', 'a path parameter by name; repeatable', collect)
    .option('-q, --query <key=value>', 'a query parameter; repeatable', collect)
    .option('-f, --file <file>', 'request body from a JSON or YAML file (- for stdin)')
    .option('-d, --data <json>', 'request body as JSON')
    .option('--all', 'fetch every page of a list')
    .option('-i, --include', 'print the status and headers of the answer on stderr')
    .addHelpText(
      'after',
      `
Prints the answer as JSON unless -o says otherwise.
Examples:
  idsvc api Users_GetAllFilter -q 'filter=userName sw "a"' -q pageSize=10
  idsvc api Groups_GetGroup Staff
  idsvc api Groups_PostGroup -d '{"name":"Staff"}'`,
    )
    .action(async (id: string, positional: string[], options: Record<string, unknown>, cmd: Command) => {
      const op = operationById(id);
      if (!op) {
        const near = similar(id);
        throw new UsageError(`no operation ${id}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
      }
      const named = settings((options.param as string[] | undefined) ?? []);
      if (positional.length > op.params.length) {
        throw new UsageError(`${op.operationId} takes ${op.params.length} path parameter(s), not ${positional.length}`);
      }
      const params: Record<string, string> = {};
      op.params.forEach((p, i) => {
        const value = named[p.name] ?? positional[i];
        if (value === undefined) throw new UsageError(`${op.operationId} needs ${p.name} (${op.path})`);
        params[p.name] = String(value);
      });
      const query: Record<string, QueryValue> = {};
      for (const item of (options.query as string[] | undefined) ?? []) {
        const at = item.indexOf('=');
        if (at <= 0) throw new UsageError(`-q needs key=value, not ${item}`);
        query[item.slice(0, at)] = item.slice(at + 1);
      }
      const ctx = contextOf(cmd);
      const { readBody } = await import('../body.js');
      const body = await readBody({
        file: options.file as string | undefined,
        data: options.data as string | undefined,
      });
      if (body === undefined && op.body?.required)
        throw new UsageError(`${op.operationId} needs a body: -f FILE or -d JSON`);
      const { callOperation } = await import('../operation.js');
      const { printData } = await import('../output/print.js');
      const result = await callOperation(ctx, op, { params, query, body, all: options.all === true });
      if (options.include && result.response) {
        ctx.info(`HTTP ${result.response.status}`);
        for (const [key, value] of Object.entries(result.response.headers)) ctx.info(`${key}: ${value}`);
      }
      const out = ctx.outputGiven ? ctx.out : { ...ctx.out, format: 'json' as const };
      if (result.data === undefined) ctx.info(`${op.operationId}: done`);
      else await printData(result.data, out);
    });
}
