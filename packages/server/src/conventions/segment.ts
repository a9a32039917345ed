const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Paths whose one segment can be a GUID or a name: a segment in GUID form is an id. */
export function isGuid(segment: string): boolean {
  return guid.test(segment);
}
