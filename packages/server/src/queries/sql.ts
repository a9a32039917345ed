import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { arrayLiteral } from './bulk.js';

/** `lower(col)`: the form every case-insensitive comparison and index uses. */
export const lower = (col: AnyColumn | SQL) => sql`lower(${col})`;

/** Window count of all matches, carried on every row of a page. */
export const totalCount = () => sql<number>`count(*) over()`.mapWith(Number);

/** Plain count of matches. */
export const countAll = () => sql<number>`count(*)`.mapWith(Number);

/** Case-insensitive match of a name column. */
export const nameIs = (col: AnyColumn, name: string) => sql`lower(${col}) = lower(${name})`;

/** Case-insensitive match against any of several names (one array parameter, however many names). */
export const nameIn = (col: AnyColumn, names: readonly string[]) =>
  sql`lower(${col}) = any(${arrayLiteral(
    names.map((n) => n.toLowerCase()),
    'text',
  )}::text[])`;
