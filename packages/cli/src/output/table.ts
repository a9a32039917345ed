import Table from 'cli-table3';
import { cellText, chooseColumns } from './cells.js';
import { paint } from './colors.js';
import type { OutputOptions } from './options.js';

const plain = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

const maxCell = 60;
const minCell = 8;

/** Widths of `columns` that fit `width`: columns that do not fit are left out (from the right), long cells cut. */
export function fitColumns(
  columns: string[],
  rows: string[][],
  width: number,
): { columns: string[]; widths: number[] } {
  const cap = Number.isFinite(width) ? maxCell : Number.POSITIVE_INFINITY;
  const natural = columns.map((c, i) => {
    let longest = c.length;
    for (const row of rows) longest = Math.max(longest, row[i].length);
    return Math.min(cap, longest);
  });
  const gap = 2;
  const total = (ws: number[]) => ws.reduce((a, b) => a + b, 0) + gap * Math.max(0, ws.length - 1);
  let count = columns.length;
  while (count > 1 && total(natural.slice(0, count).map((w) => Math.min(w, minCell))) > width) count--;
  const widths = natural.slice(0, count);
  while (total(widths) > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= minCell) break;
    widths[widest]--;
  }
  return { columns: columns.slice(0, count), widths };
}

/** A list as columns (no borders, like kubectl), fitted to the terminal. */
export function renderRows(
  items: readonly Record<string, unknown>[],
  options: OutputOptions,
  preferred?: readonly string[],
) {
  const c = paint(options.color);
  const allColumns = chooseColumns(items, preferred);
  const cells = items.map((item) => allColumns.map((col) => cellText(item[col]).replace(/\s*\n\s*/g, ' ')));
  const { columns, widths } = fitColumns(allColumns, cells, options.width);
  const table = new Table({
    head: columns.map((h) => c.bold(h)),
    chars: plain,
    colWidths: widths,
    truncate: '…',
    wordWrap: false,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const row of cells) table.push(row.slice(0, columns.length));
  return `${table.toString().replace(/[ \t]+$/gm, '')}\n`;
}

/** One object as `field  value` lines; nested objects as indented JSON. */
export function renderObject(item: Record<string, unknown>, options: OutputOptions): string {
  const c = paint(options.color);
  const keys = Object.keys(item);
  const keyWidth = Math.max(0, ...keys.map((k) => k.length));
  const valueWidth = Math.max(20, options.width - keyWidth - 2);
  const limit = Number.isFinite(valueWidth) ? valueWidth * 4 : Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  for (const key of keys) {
    const value = item[key];
    const text = valueText(value);
    const [first, ...rest] = text.split('\n');
    const cut = (s: string) => (s.length > limit ? `${s.slice(0, limit - 1)}…` : s);
    lines.push(`${c.bold(key.padEnd(keyWidth))}  ${cut(first)}`);
    for (const line of rest) lines.push(`${' '.repeat(keyWidth)}  ${cut(line)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A field's value in the one-object view: lists of objects one per line (claims as `type: value`). */
function valueText(value: unknown): string {
  if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
    return value
      .map((v) => {
        const item = v as Record<string, unknown>;
        const keys = Object.keys(item ?? {});
        if (keys.length === 2 && keys.includes('type') && keys.includes('value')) {
          return `${cellText(item.type)}: ${cellText(item.value)}`;
        }
        return JSON.stringify(v);
      })
      .join('\n');
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value, null, 2);
  return cellText(value);
}
