import { describe, expect, it } from 'vitest';
import { type Document, order } from './documents.js';
import { kindNamed } from './kinds.js';

const doc = (kind: string, spec: Record<string, unknown>): Document => ({
  kind: kindNamed(kind)!,
  key: String(spec.name),
  spec,
  source: 'test',
});

describe('apply order', () => {
  it('applies kinds in dependency order and organizations after their parents', () => {
    const docs = [
      doc('Connection', { name: 'app', dependencyConnectionNames: ['idp'] }),
      doc('Group', { name: 'Staff' }),
      doc('Organization', { name: 'Child', parentName: 'Parent' }),
      doc('connections', { name: 'idp' }),
      doc('Organization', { name: 'Parent' }),
    ];
    expect(order(docs).map((d) => `${d.kind.kind} ${d.key}`)).toEqual([
      'Organization Parent',
      'Organization Child',
      'Group Staff',
      'Connection idp',
      'Connection app',
    ]);
  });

  it('refuses a cycle', () => {
    const docs = [
      doc('Organization', { name: 'A', parentName: 'B' }),
      doc('Organization', { name: 'B', parentName: 'A' }),
    ];
    expect(() => order(docs)).toThrow('depends on itself');
  });
});
