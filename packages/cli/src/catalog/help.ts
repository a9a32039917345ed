import type { BodyInfo, OpInfo, ParamInfo } from './types.js';

const statusMeaning: Record<number, string> = {
  200: 'success (exit 0)',
  400: 'invalid input (exit 6)',
  401: 'not authenticated (exit 5)',
  403: 'not permitted (exit 5)',
  404: 'not found (exit 3)',
  409: 'conflict (exit 4)',
  413: 'too large (exit 6)',
  500: 'server error (exit 1)',
};

/** `--claim-type` for `claimType`. */
export function flagName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** The help line of a path or query parameter. */
export function paramHelp(p: ParamInfo): string {
  const parts: string[] = [];
  if (p.description) parts.push(p.description);
  else if (p.format === 'guid') parts.push('a GUID');
  else parts.push(p.type === 'enum' ? 'one of the values below' : p.type);
  if (p.default !== undefined) parts.push(`(server default: ${String(p.default)})`);
  return parts.join(' ');
}

function bodyHelp(body: BodyInfo): string[] {
  const what =
    body.shape === 'array'
      ? 'a JSON/YAML array'
      : body.shape === 'object'
        ? 'a JSON/YAML object'
        : body.shape === 'string'
          ? 'a JSON string'
          : 'JSON/YAML';
  const lines = [
    `Body:       ${what}${body.required ? '' : ' (optional)'}, from -f FILE (- for stdin), -d JSON or --set`,
  ];
  if (body.description) lines.push(`            ${body.description}`);
  if (body.fields?.length) {
    lines.push(body.shape === 'array' ? '            each item has the fields:' : '            fields:');
    const width = Math.max(...body.fields.map((f) => f.name.length));
    for (const f of body.fields) {
      const type = f.values ? f.values.join('|') : f.type;
      const flags = [f.required ? 'required' : '', f.nullable ? 'nullable' : ''].filter(Boolean).join(', ');
      lines.push(`              ${f.name.padEnd(width)}  ${type}${flags ? `  (${flags})` : ''}`);
    }
  }
  return lines;
}

/** The text after a command's options: the operation, role, body fields and statuses with their exit codes. */
export function operationHelp(op: OpInfo): string {
  const lines = ['', `Operation:  ${op.operationId} (${op.method} ${op.path})`, `Role:       ${op.role} or above`];
  if (op.list) {
    lines.push(`Sorting:    --sort-by ${op.list.sortable.join('|')} (default ${op.list.defaultSort})`);
  }
  if (op.body) lines.push(...bodyHelp(op.body));
  lines.push('Statuses:');
  for (const status of op.statuses) lines.push(`  ${status}  ${statusMeaning[status] ?? ''}`);
  lines.push(`Also: idsvc api ${op.operationId}`);
  return lines.join('\n');
}
