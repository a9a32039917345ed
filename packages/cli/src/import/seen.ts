/**
 * A compact set of strings with the row each was first seen in, for duplicate detection over a whole file in
 * bounded memory: 64-bit hashes and row numbers in typed arrays (12 bytes a slot, about 24 a row), not strings.
 */
export class SeenIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private rows: Uint32Array;
  private size = 0;

  constructor(capacity = 1 << 12) {
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.rows = new Uint32Array(capacity);
  }

  get count(): number {
    return this.size;
  }

  /** Records `key` at `row` (at least 1); returns the row it was seen in before, or 0 when it is new. */
  add(key: string, row: number): number {
    if ((this.size + 1) * 2 > this.rows.length) this.grow();
    const [h, l] = hash64(key);
    const found = this.slot(h, l);
    if (this.rows[found] !== 0) return this.rows[found];
    this.hi[found] = h;
    this.lo[found] = l;
    this.rows[found] = row;
    this.size++;
    return 0;
  }

  private slot(h: number, l: number): number {
    const mask = this.rows.length - 1;
    let i = l & mask;
    while (this.rows[i] !== 0 && (this.hi[i] !== h || this.lo[i] !== l)) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const { hi, lo, rows } = this;
    this.hi = new Uint32Array(rows.length * 2);
    this.lo = new Uint32Array(rows.length * 2);
    this.rows = new Uint32Array(rows.length * 2);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      const at = this.slot(hi[i], lo[i]);
      this.hi[at] = hi[i];
      this.lo[at] = lo[i];
      this.rows[at] = rows[i];
    }
  }
}

/** Two independent 32-bit FNV-1a style hashes of the string's UTF-16 code units. */
function hash64(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 13;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 16;
  return [a >>> 0, b >>> 0];
}
