import { Command, Option } from 'commander';
import { operations } from './catalog/data.js';
import { groupInfo } from './catalog/groups.js';
import { flagName, operationHelp, paramHelp } from './catalog/help.js';
import type { OpInfo, ParamInfo } from './catalog/types.js';
import type { QueryValue } from './client/http.js';
import { contextOf } from './context.js';
import { UsageError } from './errors.js';

/** A hand-made command standing in for an operation's generated one (it gets the operation for its help). */
export type CommandFactory = (op: OpInfo | undefined) => Command;
export type HandMade = Record<string, Record<string, CommandFactory>>;

/** Options every command of a body-taking operation has. */
export function addBodyOptions(command: Command, op: OpInfo): Command {
  command
    .option('-f, --file <file>', 'request body from a JSON or YAML file (- for stdin)')
    .option('-d, --data <json>', 'request body as JSON');
  if (op.body?.shape === 'object') {
    command.option(
      '--set <field=value>',
      'set one field of the body (value parsed as JSON when it is JSON, else a string); repeatable',
      collect,
      [],
    );
  }
  return command;
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function queryOption(p: ParamInfo): Option {
  const flag = `--${flagName(p.name)}`;
  if (p.type === 'boolean') return new Option(flag, paramHelp(p));
  const option = new Option(`${flag} <${p.type === 'enum' ? 'value' : p.type}>`, paramHelp(p));
  return p.values ? option.choices(p.values) : option;
}

/** Paging, sorting and filtering flags of list operations. */
export function addListOptions(command: Command, op: OpInfo): Command {
  if (!op.list) return command;
  command
    .option('--page-index <n>', 'page number, from 1')
    .option('--page-size <n>', 'items per page (at most 1000)')
    .addOption(
      new Option('--sort-by <field>', `field to sort by (default ${op.list.defaultSort})`).choices(op.list.sortable),
    )
    .addOption(new Option('--sort-order <order>', 'sort order').choices(['Ascending', 'Descending']))
    .option('--all', 'fetch every page');
  if (op.list.kind === 'filter') {
    command
      .option('--filter <scim>', 'SCIM filter, e.g. \'userName sw "a" and active eq true\'')
      .option('--attributes <fields>', 'comma-separated fields to return');
  }
  return command;
}

type Options = Record<string, unknown>;

/** Query values of the operation's own parameters and of the list flags, from the parsed options. */
export function queryFrom(op: OpInfo, options: Options): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const p of op.query) {
    const key = flagName(p.name).replace(/-([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    const value = options[key];
    if (value === undefined) continue;
    query[p.name] = p.type === 'boolean' ? 'true' : String(value);
  }
  for (const key of ['pageIndex', 'pageSize', 'sortBy', 'sortOrder', 'filter', 'attributes']) {
    if (options[key] !== undefined) query[key] = String(options[key]);
  }
  return query;
}

/** Parses `field=value` settings into an object; a value that is JSON is taken as JSON. */
export function settings(values: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of values) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`--set needs field=value, not ${item}`);
    const raw = item.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    out[item.slice(0, at)] = value;
  }
  return out;
}

/** The body of a call from -f/-d/--set; a required body that is missing is a usage error. */
export async function bodyFrom(op: OpInfo, options: Options): Promise<unknown> {
  if (!op.body) return undefined;
  const { readBody } = await import('./body.js');
  let body = await readBody({ file: options.file as string | undefined, data: options.data as string | undefined });
  const sets = (options.set as string[] | undefined) ?? [];
  if (sets.length) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new UsageError('--set needs the body to be an object');
    }
    body = { ...((body as object | undefined) ?? {}), ...settings(sets) };
  }
  if (body === undefined && op.body.required) {
    throw new UsageError(
      `${op.cli.group} ${op.cli.action} needs a body: -f FILE, -d JSON${op.body.shape === 'object' ? ' or --set' : ''}`,
    );
  }
  return body;
}

/** The command generated for one operation: path parameters as arguments, query parameters as flags. */
export function operationCommand(op: OpInfo, name = op.cli.action): Command {
  const command = new Command(name).description(op.summary);
  for (const p of op.params) command.argument(`<${p.name}>`, paramHelp(p));
  for (const p of op.query) command.addOption(queryOption(p));
  addListOptions(command, op);
  addBodyOptions(command, op);
  command.addHelpText('after', operationHelp(op));
  command.action(async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const options = cmd.opts();
    const params = Object.fromEntries(op.params.map((p, i) => [p.name, String(cmd.processedArgs[i])]));
    const ctx = contextOf(cmd);
    const { runOperation } = await import('./operation.js');
    await runOperation(
      ctx,
      op,
      { params, query: queryFrom(op, options), body: await bodyFrom(op, options), all: options.all === true },
      { columns: groupInfo[op.cli.group]?.columns },
    );
  });
  return command;
}

/** One command group per catalog group: the hand-made commands where there are, the generated ones elsewhere. */
export function catalogGroups(handMade: HandMade): Command[] {
  const groups = new Map<string, Command>();
  const groupOf = (name: string) => {
    let group = groups.get(name);
    if (!group) {
      group = new Command(name).description(groupInfo[name]?.description ?? name);
      groups.set(name, group);
    }
    return group;
  };
  const used = new Set<string>();
  for (const op of operations) {
    const factory = handMade[op.cli.group]?.[op.cli.action];
    groupOf(op.cli.group).addCommand(factory ? factory(op) : operationCommand(op));
    used.add(`${op.cli.group} ${op.cli.action}`);
  }
  for (const [group, actions] of Object.entries(handMade)) {
    for (const [action, factory] of Object.entries(actions)) {
      if (!used.has(`${group} ${action}`)) groupOf(group).addCommand(factory(undefined));
    }
  }
  return [...groups.values()];
}

/** The operation of a group and action (for hand-made commands that call it). */
export function operationOf(group: string, action: string): OpInfo {
  const op = operations.find((o) => o.cli.group === group && o.cli.action === action);
  if (!op) throw new Error(`no operation for ${group} ${action}`);
  return op;
}

export function operationById(id: string): OpInfo | undefined {
  return operations.find((o) => o.operationId.toLowerCase() === id.toLowerCase());
}
