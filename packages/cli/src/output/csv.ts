import { stringify } from 'csv-stringify/sync';
import { cellText } from './cells.js';

/** Objects as CSV with a header line; lists of values are joined with `;`, nested objects written as JSON. */
export function renderCsv(items: readonly Record<string, unknown>[]): string {
  if (items.length === 0) return '';
  const columns = allColumns(items);
  const rows = items.map((item) => columns.map((c) => cellText(item[c], ';')));
  return stringify([columns, ...rows]);
}

function allColumns(items: readonly Record<string, unknown>[]): string[] {
  const keys: string[] = [];
  for (const item of items) for (const key of Object.keys(item)) if (!keys.includes(key)) keys.push(key);
  return keys;
}
