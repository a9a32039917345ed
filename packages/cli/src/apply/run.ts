import type { ApiClient } from '../client/http.js';
import type { Context } from '../context.js';
import { CliError, type ExitCode, exitCodes } from '../errors.js';
import { paint } from '../output/colors.js';
import { reportError } from '../report-error.js';
import { merge } from './diff.js';
import type { Document } from './documents.js';
import { itemPath } from './kinds.js';
import { makePlan, type PlanItem, validate } from './plan.js';

export interface ApplyOptions {
  dryRun?: boolean;
  prune?: boolean;
  yes?: boolean;
}

const base = '/api/rest/v2';
const symbols = { create: '+', update: '~', unchanged: '=', delete: '-' } as const;

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'null' : text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function planLines(ctx: Context, items: readonly PlanItem[], done: boolean): string[] {
  const c = paint(ctx.out.color);
  const verb = {
    create: done ? 'created' : 'create',
    update: done ? 'updated' : 'update',
    unchanged: 'unchanged',
    delete: done ? 'deleted' : 'delete',
  };
  const colour = { create: c.green, update: c.yellow, unchanged: c.dim, delete: c.red };
  const lines: string[] = [];
  for (const item of items) {
    lines.push(colour[item.action](`${symbols[item.action]} ${verb[item.action]} ${item.kind.kind} ${item.key}`));
    for (const change of item.changes) lines.push(`    ${change.path}: ${show(change.from)} → ${show(change.to)}`);
  }
  return lines;
}

async function execute(api: ApiClient, item: PlanItem): Promise<void> {
  const kind = item.kind;
  if (item.action === 'create' && item.doc) {
    await api.call('POST', `${base}${kind.collection}`, { body: item.doc.spec });
  } else if (item.action === 'update' && item.doc && item.current) {
    await api.call('PUT', `${base}${kind.collection}`, { body: merge(item.current, item.doc.spec) });
  } else if (item.action === 'delete') {
    const path = itemPath(kind, item.key) ?? `${kind.collection}/${encodeURIComponent(item.key)}`;
    await api.call('DELETE', `${base}${path}`);
  }
}

/**
 * Applies documents: validates them all, plans against the server, and (unless a dry run) creates and updates in
 * dependency order, deletes last (only with --prune). Failures do not stop the others: exit 7 when some failed.
 */
export async function apply(ctx: Context, docs: Document[], options: ApplyOptions): Promise<void> {
  await validate(docs);
  const api = await ctx.api();
  const plan = await makePlan(api, docs, options.prune === true);
  const count = (action: PlanItem['action']) => plan.filter((i) => i.action === action).length;
  const deletes = count('delete');
  if (!options.dryRun && deletes > 0 && !options.yes) {
    const { confirm } = await import('../prompt.js');
    const names = plan.filter((i) => i.action === 'delete').map((i) => `${i.kind.kind} ${i.key}`);
    ctx.info(`--prune deletes: ${names.join(', ')}`);
    if (!(await confirm(`Delete ${deletes} object(s) not in the documents?`)))
      throw new CliError('nothing changed', exitCodes.usage);
  }
  const failures: { item: PlanItem; code: ExitCode }[] = [];
  if (!options.dryRun) {
    for (const item of plan) {
      if (item.action === 'unchanged') continue;
      try {
        await execute(api, item);
      } catch (error) {
        if (error instanceof Error) error.message = `${item.kind.kind} ${item.key}: ${error.message}`;
        failures.push({ item, code: reportError(error, ctx.out.colorErr) });
      }
    }
  }
  const applied = plan.filter((i) => !failures.some((f) => f.item === i));
  if (ctx.out.format === 'table') {
    const { writeOut } = await import('../output/write.js');
    await writeOut(`${planLines(ctx, applied, !options.dryRun).join('\n')}\n`);
  } else {
    const { printData } = await import('../output/print.js');
    await printData(
      plan.map((i) => ({
        kind: i.kind.kind,
        name: i.key,
        action: i.action,
        changes: i.changes,
        result: options.dryRun ? 'planned' : failures.some((f) => f.item === i) ? 'failed' : 'done',
      })),
      ctx.out,
    );
  }
  const changes = count('create') + count('update') + deletes;
  const made = changes - failures.length;
  const did = (action: PlanItem['action']) => applied.filter((i) => i.action === action).length;
  const counts = options.dryRun
    ? `${count('create')} to create, ${count('update')} to update, ${deletes} to delete`
    : `${did('create')} created, ${did('update')} updated, ${did('delete')} deleted`;
  ctx.info(
    `${options.dryRun ? `dry run: ${changes} change(s) planned` : `${made} change(s)`}: ${counts}; ${count('unchanged')} unchanged${failures.length ? `; ${failures.length} failed` : ''}`,
  );
  if (failures.length) {
    const codes = new Set(failures.map((f) => f.code));
    throw new SilentApplyFailure(
      `${failures.length} of ${changes} change(s) failed`,
      made > 0 || codes.size > 1 ? exitCodes.partial : failures[0].code,
    );
  }
}

class SilentApplyFailure extends CliError {}
