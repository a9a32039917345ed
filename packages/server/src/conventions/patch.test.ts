import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/api-error.js';
import { applyPatch, parsePatch } from './patch.js';

const current = { name: 'a', description: 'd', groups: ['x'] };
const editable = ['name', 'description', 'groups'];

describe('PATCH operations', () => {
  it('reads keys case-insensitively and replaces a field', () => {
    const ops = parsePatch([{ Op: 'Replace', Path: 'Description', Value: 'new' }]);
    expect(applyPatch(current, ops, editable)).toEqual({ name: 'a', description: 'new', groups: ['x'] });
  });
  it('adds to and removes from array fields', () => {
    const ops = parsePatch([
      { op: 'add', path: 'groups', value: 'y' },
      { op: 'remove', path: 'groups', value: 'x' },
    ]);
    expect(applyPatch(current, ops, editable).groups).toEqual(['y']);
  });
  it('sets each field of an object value when the path is empty', () => {
    const ops = parsePatch([{ op: 'replace', value: { name: 'b', description: null } }]);
    expect(applyPatch(current, ops, editable)).toEqual({ name: 'b', description: null, groups: ['x'] });
  });
  it('refuses an unknown op, an unknown path and a non-array body without touching the input', () => {
    expect(() => parsePatch([{ op: 'move', path: 'name' }])).toThrow(ApiError);
    expect(() => applyPatch(current, parsePatch([{ op: 'replace', path: 'nope', value: 1 }]), editable)).toThrow(
      'unknown path "nope"',
    );
    expect(() => parsePatch({ op: 'replace' })).toThrow(ApiError);
    expect(current).toEqual({ name: 'a', description: 'd', groups: ['x'] });
  });
});
