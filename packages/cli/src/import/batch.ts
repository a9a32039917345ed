import type { ApiClient } from '../client/http.js';
import { ApiCallError, CliError, detailText, exitCodes } from '../errors.js';
import { type ExistenceCache, type ExistingUser, existingUsers } from './lookup.js';

/** A row of the file on its way to the server. */
export interface Row {
  row: number;
  cells: string[];
  /** The user to send; absent when the row is invalid. */
  user?: Record<string, unknown>;
  /** Why the row cannot be imported. */
  error?: string;
}

export interface BatchOptions {
  updateExisting: boolean;
  resume: boolean;
  dryRun: boolean;
  sendPasswordEmail: boolean;
}

/** What became of a batch's rows. */
export interface BatchOutcome {
  created: number;
  updated: number;
  skipped: number;
  failed: { row: Row; reason: string }[];
}

export interface DryRunChecks {
  organizations: ExistenceCache;
  groups: ExistenceCache;
}

const lower = (v: unknown) => String(v).toLowerCase();

/** Errors that end the whole import at once: credentials refused, or the server unreachable. */
export function isFatal(error: unknown): boolean {
  if (error instanceof ApiCallError) return error.status === 401 || error.status === 403;
  return !(error instanceof CliError) || error.exitCode === exitCodes.failure;
}

/** Rows of a refused request: the item the server names gets its reason, the others say which row sank them. */
function refused(rows: readonly Row[], error: unknown): { row: Row; reason: string }[] {
  if (!(error instanceof ApiCallError)) return rows.map((row) => ({ row, reason: String(error) }));
  const named = new Map<number, string>();
  for (const detail of error.apiDetails) {
    const index = (detail as { index?: unknown })?.index;
    if (typeof index === 'number' && rows[index]) named.set(index, detailText(detail).replace(/^\[\d+\]\s*/, ''));
  }
  const culprits = [...named.keys()].map((i) => rows[i].row);
  return rows.map((row, i) => ({
    row,
    reason: named.has(i)
      ? `${error.status} ${error.code}: ${named.get(i)}`
      : culprits.length
        ? `not imported: its batch was refused because of row ${culprits.join(', ')}`
        : `${error.status} ${error.code}: ${error.message}`,
  }));
}

async function send(
  api: ApiClient,
  method: 'POST' | 'PUT',
  rows: Row[],
  options: BatchOptions,
): Promise<{ ok: number; failed: { row: Row; reason: string }[] }> {
  if (rows.length === 0) return { ok: 0, failed: [] };
  try {
    await api.call(method, '/api/rest/v2/users/.batch', {
      query: method === 'POST' && options.sendPasswordEmail ? { sendPasswordEmailToUser: 'true' } : {},
      body: rows.map((r) => r.user),
    });
    return { ok: rows.length, failed: [] };
  } catch (error) {
    if (isFatal(error)) throw error;
    return { ok: 0, failed: refused(rows, error) };
  }
}

/** Dry run: the problems the server would find (names and e-mails taken, unknown organizations and groups). */
async function dryRunProblems(
  row: Row,
  existing: ExistingUser | undefined,
  byEmail: Map<string, ExistingUser>,
  options: BatchOptions,
  checks: DryRunChecks,
): Promise<string | undefined> {
  const user = row.user!;
  if (existing && !options.updateExisting && !options.resume) return `userName ${existing.userName} exists`;
  const email = user.email === undefined ? undefined : lower(user.email);
  const owner = email ? byEmail.get(email) : undefined;
  if (owner && owner.id !== existing?.id) return `email ${String(user.email)} belongs to user ${owner.userName}`;
  if (typeof user.organization === 'string' && !(await checks.organizations.exists(user.organization))) {
    return `no organization ${user.organization}`;
  }
  for (const group of (user.groups as string[] | undefined) ?? []) {
    if (!(await checks.groups.exists(group))) return `no group ${group}`;
  }
  return undefined;
}

/**
 * Imports one batch, all or nothing: an invalid row sinks its batch without a request; otherwise the rows are
 * created (Users_PostMassUser), or with --update-existing updated when their userName exists (Users_PutMassUser),
 * or with --resume skipped when it exists. A dry run only checks.
 */
export async function importBatch(
  api: ApiClient,
  rows: Row[],
  options: BatchOptions,
  checks: DryRunChecks | undefined,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { created: 0, updated: 0, skipped: 0, failed: [] };
  const valid = rows.filter((r) => r.user && !r.error);
  const lookUp = options.updateExisting || options.resume || options.dryRun;
  const found = lookUp
    ? await existingUsers(
        api,
        valid.map((r) => String(r.user!.userName)),
        options.dryRun ? valid.flatMap((r) => (typeof r.user!.email === 'string' ? [r.user!.email] : [])) : [],
      )
    : [];
  const byName = new Map(found.map((u) => [lower(u.userName), u]));
  const byEmail = new Map(found.flatMap((u) => (u.email ? [[lower(u.email), u] as const] : [])));
  const creates: Row[] = [];
  const updates: Row[] = [];
  const skipped = new Set<Row>();
  for (const row of valid) {
    const existing = byName.get(lower(row.user!.userName));
    if (options.dryRun && checks) {
      const problem = await dryRunProblems(row, existing, byEmail, options, checks);
      if (problem) {
        row.error = problem;
        continue;
      }
    }
    if (existing && options.updateExisting) {
      row.user = { ...row.user, id: existing.id };
      updates.push(row);
    } else if (existing && options.resume) skipped.add(row);
    else creates.push(row);
  }
  outcome.skipped = skipped.size;
  const culprits = rows.filter((r) => r.error);
  if (culprits.length) {
    // all or nothing: an invalid row sinks the rest of its batch (rows skipped as imported already stay skipped)
    const names = culprits.map((r) => r.row).join(', ');
    for (const row of rows) {
      if (skipped.has(row)) continue;
      outcome.failed.push({ row, reason: row.error ?? `not imported: row ${names} of its batch is invalid` });
    }
    return outcome;
  }
  if (options.dryRun) {
    outcome.created = creates.length;
    outcome.updated = updates.length;
    return outcome;
  }
  const created = await send(api, 'POST', creates, options);
  const updated = await send(api, 'PUT', updates, options);
  outcome.created = created.ok;
  outcome.updated = updated.ok;
  outcome.failed.push(...created.failed, ...updated.failed);
  return outcome;
}
