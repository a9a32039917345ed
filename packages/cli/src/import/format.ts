import { UsageError } from '../errors.js';

/**
 * The CSV format of `users import` and `users export`: a header line naming the columns, one user per row.
 * Lists (groups, several values of one claim) are `;`-separated, with `\;` and `\\` for a literal `;` and `\`.
 */
export const userColumns = [
  'userName',
  'email',
  'displayName',
  'password',
  'organization',
  'groups',
  'active',
  'phoneNumber',
] as const;

/** Columns import also takes: a migrated hash; `row` and `reason` (of an --errors file) are ignored. */
export const extraColumns = ['passwordHash'] as const;
export const ignoredColumns = ['row', 'reason'] as const;
export const claimPrefix = 'claim:';

export type Column =
  | { kind: 'field'; field: (typeof userColumns)[number] | (typeof extraColumns)[number] }
  | { kind: 'claim'; claimType: string }
  | { kind: 'ignored' };

/** Reads a header line; unknown or repeated columns, or no userName column, are usage errors. */
export function parseHeader(header: readonly string[]): Column[] {
  const known = new Map<string, (typeof userColumns)[number] | (typeof extraColumns)[number]>(
    [...userColumns, ...extraColumns].map((c) => [c.toLowerCase(), c]),
  );
  const seen = new Set<string>();
  const columns = header.map((raw): Column => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw new UsageError(`the header names column ${name} twice`);
    seen.add(lower);
    if (lower.startsWith(claimPrefix)) {
      const claimType = name.slice(claimPrefix.length).trim();
      if (!claimType) throw new UsageError('a claim column needs a claim type: claim:<claimType>');
      return { kind: 'claim', claimType };
    }
    const field = known.get(lower);
    if (field) return { kind: 'field', field };
    if ((ignoredColumns as readonly string[]).includes(lower)) return { kind: 'ignored' };
    throw new UsageError(`unknown column ${name}`, [
      `columns: ${[...userColumns, ...extraColumns].join(', ')}, claim:<claimType>`,
    ]);
  });
  if (!columns.some((c) => c.kind === 'field' && c.field === 'userName')) {
    throw new UsageError('the header has no userName column');
  }
  return columns;
}

/** Splits a `;`-separated list, honouring `\;` and `\\`; blank items are left out. */
export function splitList(cell: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch === '\\' && (cell[i + 1] === ';' || cell[i + 1] === '\\')) {
      current += cell[++i];
    } else if (ch === ';') {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items.map((s) => s.trim()).filter((s) => s !== '');
}

/** Joins values into a `;`-separated list cell (the inverse of splitList). */
export function joinList(values: readonly string[]): string {
  return values.map((v) => v.replaceAll('\\', '\\\\').replaceAll(';', '\\;')).join(';');
}

function parseBool(cell: string): boolean {
  if (/^(true|yes|1)$/i.test(cell)) return true;
  if (/^(false|no|0)$/i.test(cell)) return false;
  throw new Error(`active must be true or false, not ${cell}`);
}

/** One row as the body of Users_PostMassUser; throws an Error with the reason when the row cannot be read. */
export function rowToUser(columns: readonly Column[], cells: readonly string[]): Record<string, unknown> {
  if (cells.length !== columns.length) {
    throw new Error(`the row has ${cells.length} cells, the header ${columns.length}`);
  }
  const user: Record<string, unknown> = {};
  const claims: { type: string; value: string }[] = [];
  columns.forEach((column, i) => {
    const cell = cells[i];
    if (column.kind === 'ignored' || cell.trim() === '') return;
    if (column.kind === 'claim') {
      for (const value of splitList(cell)) claims.push({ type: column.claimType, value });
      return;
    }
    switch (column.field) {
      case 'groups':
        user.groups = splitList(cell);
        break;
      case 'active':
        user.active = parseBool(cell.trim());
        break;
      case 'password':
      case 'passwordHash':
        user[column.field] = cell;
        break;
      default:
        user[column.field] = cell.trim();
    }
  });
  if (user.userName === undefined) throw new Error('userName is empty');
  if (user.password !== undefined && user.passwordHash !== undefined) {
    throw new Error('give password or passwordHash, not both');
  }
  if (claims.length) user.claims = claims;
  return user;
}

/** The header of an export: the user columns but password (never returned), then a column per claim type. */
export function exportHeader(claimTypes: readonly string[]): string[] {
  return [...userColumns.filter((c) => c !== 'password'), ...claimTypes.map((t) => `${claimPrefix}${t}`)];
}

/** One exported user as the cells of `exportHeader`. */
export function userToRow(user: Record<string, unknown>, claimTypes: readonly string[]): string[] {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const claims = Array.isArray(user.claims) ? (user.claims as { type: string; value: string }[]) : [];
  return [
    text(user.userName),
    text(user.email),
    text(user.displayName),
    text(user.organization),
    joinList(Array.isArray(user.groups) ? (user.groups as string[]) : []),
    text(user.active),
    text(user.phoneNumber),
    ...claimTypes.map((type) => joinList(claims.filter((c) => c.type === type).map((c) => c.value))),
  ];
}
