import { describe, expect, it } from 'vitest';
import { arrayLiteral } from './bulk.js';

describe('arrayLiteral', () => {
  it('quotes and escapes every element and writes null unquoted', () => {
    expect(arrayLiteral(['a', 'b"c', 'd\\e', null, '{x,y}'], 'text')).toBe('{"a","b\\"c","d\\\\e",NULL,"{x,y}"}');
  });
  it('writes JSON for jsonb and ISO strings for dates', () => {
    expect(arrayLiteral([{ k: 'v"' }], 'jsonb')).toBe('{"{\\"k\\":\\"v\\\\\\"\\"}"}');
    expect(arrayLiteral([new Date('2020-01-02T03:04:05.000Z')], 'timestamptz')).toBe('{"2020-01-02T03:04:05.000Z"}');
  });
});
