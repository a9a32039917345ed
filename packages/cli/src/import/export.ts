import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { ApiClient } from '../client/http.js';
import type { Context } from '../context.js';
import { ApiCallError } from '../errors.js';
import { printData } from '../output/print.js';
import { writeOut } from '../output/write.js';
import { exportHeader, userToRow } from './format.js';

type User = Record<string, unknown>;
const pageSize = 1000;

/** Every user, page by page (Users_GetAll, or Users_GetAllFilter with a filter); an empty list is no users. */
async function* allUsers(api: ApiClient, filter: string | undefined): AsyncGenerator<User[]> {
  for (let pageIndex = 1; ; pageIndex++) {
    let page: User[];
    try {
      const response = await api.call<User[]>('GET', filter ? '/api/rest/v2/users/.filter' : '/api/rest/v2/users', {
        query: { pageIndex, pageSize, sortBy: 'userName', filter },
      });
      page = response.body;
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 404 && !filter) return;
      throw error;
    }
    if (page.length) yield page;
    if (page.length < pageSize) return;
  }
}

/**
 * CSV needs its claim columns in the header before the first row, so the users are spooled to a private
 * temporary file (one JSON line each) while the claim types are collected, then written out: memory stays flat.
 */
async function exportCsv(ctx: Context, api: ApiClient, filter: string | undefined): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-export-'));
  const spool = join(dir, 'users.jsonl');
  try {
    const claimTypes = new Set<string>();
    const out = await open(spool, 'w', 0o600);
    let count = 0;
    try {
      for await (const page of allUsers(api, filter)) {
        for (const user of page) {
          for (const claim of (user.claims as { type: string }[] | undefined) ?? []) claimTypes.add(claim.type);
        }
        await out.write(`${page.map((u) => JSON.stringify(u)).join('\n')}\n`);
        count += page.length;
      }
    } finally {
      await out.close();
    }
    const types = [...claimTypes].sort();
    await writeOut(stringify([exportHeader(types)]));
    const input = await open(spool, 'r');
    try {
      let rows: string[][] = [];
      for await (const line of input.readLines()) {
        if (!line) continue;
        rows.push(userToRow(JSON.parse(line) as User, types));
        if (rows.length >= 1000) {
          await writeOut(stringify(rows));
          rows = [];
        }
      }
      if (rows.length) await writeOut(stringify(rows));
    } finally {
      await input.close();
    }
    ctx.info(`exported ${count.toLocaleString('en-US')} user(s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `users export`: CSV unless -o says json or yaml (a table is not an export). */
export async function exportUsers(ctx: Context, filter: string | undefined): Promise<void> {
  const api = await ctx.api();
  if (!ctx.outputGiven || ctx.out.format === 'csv' || ctx.out.format === 'table') return exportCsv(ctx, api, filter);
  const users: User[] = [];
  for await (const page of allUsers(api, filter)) users.push(...page);
  await printData(users, ctx.out);
}
