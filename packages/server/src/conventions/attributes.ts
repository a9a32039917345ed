/** `attributes=a,b` → the requested field names (lower-case), or undefined for all. */
export function parseAttributes(value: string | readonly string[] | undefined): string[] | undefined {
  const list = (typeof value === 'string' ? value.split(',') : (value ?? [])).map((a) => a.trim()).filter(Boolean);
  return list.length ? list.map((a) => a.toLowerCase()) : undefined;
}

/** Keeps only the requested fields of each item, plus the resource's key fields. */
export function project<T extends object>(items: T[], attributes: string[] | undefined, keys: readonly string[]) {
  if (!attributes) return items;
  const wanted = new Set([...attributes, ...keys.map((k) => k.toLowerCase())]);
  return items.map((item) =>
    Object.fromEntries(Object.entries(item).filter(([name]) => wanted.has(name.toLowerCase()))),
  );
}
