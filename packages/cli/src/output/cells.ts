/** Text of one value in a table or CSV cell: scalars as is, lists of scalars joined, objects as compact JSON. */
export function cellText(value: unknown, listSeparator = ', '): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => cellText(v)).join(listSeparator);
  }
  return JSON.stringify(value);
}

/** Fields that name an object, shown first when a command gives no columns. */
const keyFields = [
  'name',
  'userName',
  'claimType',
  'thumbprint',
  'operationId',
  'displayName',
  'email',
  'subject',
  'kind',
  'type',
];

/** Columns of a list: the command's choice, else key fields first, then other scalar fields. */
export function chooseColumns(rows: readonly Record<string, unknown>[], preferred?: readonly string[]): string[] {
  const present = new Set<string>();
  for (const row of rows.slice(0, 50)) for (const key of Object.keys(row)) present.add(key);
  if (preferred?.length) {
    const chosen = preferred.filter((c) => present.has(c));
    if (chosen.length) return chosen;
  }
  const scalar = (key: string) =>
    rows.slice(0, 50).every((row) => {
      const v = row[key];
      return v === null || v === undefined || typeof v !== 'object' || Array.isArray(v);
    });
  const keys = [...present].filter(scalar);
  const first = keyFields.filter((k) => present.has(k));
  return [...first, ...keys.filter((k) => !first.includes(k))];
}
