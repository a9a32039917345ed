import type { OutputOptions, TableHints } from './options.js';
import { writeErr, writeOut } from './write.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Stable JSON: two-space indentation, the server's field order, a newline at the end. */
export function jsonText(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Prints a command's result on stdout in the chosen format (nothing for an empty answer). */
export async function printData(data: unknown, out: OutputOptions, hints: TableHints = {}): Promise<void> {
  if (data === undefined) return;
  switch (out.format) {
    case 'json':
      return writeOut(jsonText(data));
    case 'yaml': {
      const { stringify } = await import('yaml');
      return writeOut(stringify(data, { lineWidth: 0 }));
    }
    case 'csv': {
      const { renderCsv } = await import('./csv.js');
      const rows = Array.isArray(data) ? data : [data];
      // every field (the table's column choice is for people, CSV is for programs)
      if (rows.every(isRecord)) return writeOut(renderCsv(rows));
      return writeOut(`${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
    }
    default: {
      if (typeof data === 'string') return writeOut(data.endsWith('\n') ? data : `${data}\n`);
      const { renderObject, renderRows } = await import('./table.js');
      if (Array.isArray(data)) {
        if (data.length === 0) {
          if (!out.quiet) writeErr(hints.empty ?? 'no items');
          return;
        }
        if (data.every(isRecord)) return writeOut(renderRows(data, out, hints.columns));
        return writeOut(`${data.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n')}\n`);
      }
      if (isRecord(data)) return writeOut(renderObject(data, out));
      return writeOut(`${String(data)}\n`);
    }
  }
}
