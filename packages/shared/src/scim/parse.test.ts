import { describe, expect, it } from 'vitest';
import type { FilterNode } from './ast.js';
import { InvalidFilterError } from './errors.js';
import { MAX_FILTER_DEPTH, parseFilter } from './parse.js';

function errorOf(text: string): InvalidFilterError {
  try {
    parseFilter(text);
  } catch (err) {
    if (err instanceof InvalidFilterError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseFilter: RFC 7644 §3.4.2.2 examples', () => {
  const cases: [string, FilterNode][] = [
    ['userName eq "bjensen"', { kind: 'compare', attr: { attr: 'userName' }, op: 'eq', value: 'bjensen' }],
    [
      'name.familyName co "O\'Malley"',
      { kind: 'compare', attr: { attr: 'name', sub: 'familyName' }, op: 'co', value: "O'Malley" },
    ],
    ['userName sw "J"', { kind: 'compare', attr: { attr: 'userName' }, op: 'sw', value: 'J' }],
    [
      'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
      {
        kind: 'compare',
        attr: { attr: 'urn:ietf:params:scim:schemas:core:2.0:User:userName' },
        op: 'sw',
        value: 'J',
      },
    ],
    ['title pr', { kind: 'present', attr: { attr: 'title' } }],
    [
      'meta.lastModified gt "2011-05-13T04:42:34Z"',
      { kind: 'compare', attr: { attr: 'meta', sub: 'lastModified' }, op: 'gt', value: '2011-05-13T04:42:34Z' },
    ],
    [
      'meta.lastModified ge "2011-05-13T04:42:34Z"',
      { kind: 'compare', attr: { attr: 'meta', sub: 'lastModified' }, op: 'ge', value: '2011-05-13T04:42:34Z' },
    ],
    [
      'meta.lastModified lt "2011-05-13T04:42:34Z"',
      { kind: 'compare', attr: { attr: 'meta', sub: 'lastModified' }, op: 'lt', value: '2011-05-13T04:42:34Z' },
    ],
    [
      'meta.lastModified le "2011-05-13T04:42:34Z"',
      { kind: 'compare', attr: { attr: 'meta', sub: 'lastModified' }, op: 'le', value: '2011-05-13T04:42:34Z' },
    ],
    [
      'title pr and userType eq "Employee"',
      {
        kind: 'and',
        left: { kind: 'present', attr: { attr: 'title' } },
        right: { kind: 'compare', attr: { attr: 'userType' }, op: 'eq', value: 'Employee' },
      },
    ],
    [
      'title pr or userType eq "Intern"',
      {
        kind: 'or',
        left: { kind: 'present', attr: { attr: 'title' } },
        right: { kind: 'compare', attr: { attr: 'userType' }, op: 'eq', value: 'Intern' },
      },
    ],
    [
      'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
      {
        kind: 'compare',
        attr: { attr: 'schemas' },
        op: 'eq',
        value: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      },
    ],
    [
      'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
      {
        kind: 'and',
        left: { kind: 'compare', attr: { attr: 'userType' }, op: 'eq', value: 'Employee' },
        right: {
          kind: 'or',
          left: { kind: 'compare', attr: { attr: 'emails' }, op: 'co', value: 'example.com' },
          right: { kind: 'compare', attr: { attr: 'emails', sub: 'value' }, op: 'co', value: 'example.org' },
        },
      },
    ],
    [
      'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
      {
        kind: 'and',
        left: { kind: 'compare', attr: { attr: 'userType' }, op: 'ne', value: 'Employee' },
        right: {
          kind: 'not',
          expr: {
            kind: 'or',
            left: { kind: 'compare', attr: { attr: 'emails' }, op: 'co', value: 'example.com' },
            right: { kind: 'compare', attr: { attr: 'emails', sub: 'value' }, op: 'co', value: 'example.org' },
          },
        },
      },
    ],
    [
      'userType eq "Employee" and (emails.type eq "work")',
      {
        kind: 'and',
        left: { kind: 'compare', attr: { attr: 'userType' }, op: 'eq', value: 'Employee' },
        right: { kind: 'compare', attr: { attr: 'emails', sub: 'type' }, op: 'eq', value: 'work' },
      },
    ],
    [
      'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
      {
        kind: 'and',
        left: { kind: 'compare', attr: { attr: 'userType' }, op: 'eq', value: 'Employee' },
        right: {
          kind: 'valuePath',
          attr: 'emails',
          filter: {
            kind: 'and',
            left: { kind: 'compare', attr: { attr: 'type' }, op: 'eq', value: 'work' },
            right: { kind: 'compare', attr: { attr: 'value' }, op: 'co', value: '@example.com' },
          },
        },
      },
    ],
    [
      'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      {
        kind: 'or',
        left: {
          kind: 'valuePath',
          attr: 'emails',
          filter: {
            kind: 'and',
            left: { kind: 'compare', attr: { attr: 'type' }, op: 'eq', value: 'work' },
            right: { kind: 'compare', attr: { attr: 'value' }, op: 'co', value: '@example.com' },
          },
        },
        right: {
          kind: 'valuePath',
          attr: 'ims',
          filter: {
            kind: 'and',
            left: { kind: 'compare', attr: { attr: 'type' }, op: 'eq', value: 'xmpp' },
            right: { kind: 'compare', attr: { attr: 'value' }, op: 'co', value: '@foo.com' },
          },
        },
      },
    ],
  ];

  it.each(cases)('parses %s', (text, expected) => {
    expect(parseFilter(text)).toEqual(expected);
  });
});

describe('parseFilter: operators and values', () => {
  it.each(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const)('reads operator %s', (op) => {
    expect(parseFilter(`x ${op} "v"`)).toEqual({ kind: 'compare', attr: { attr: 'x' }, op, value: 'v' });
  });

  it('reads operators and logical words in any case and keeps attribute names as written', () => {
    expect(parseFilter('UserName EQ "a" AND Title PR Or NOT (Active Eq TRUE)')).toEqual({
      kind: 'or',
      left: {
        kind: 'and',
        left: { kind: 'compare', attr: { attr: 'UserName' }, op: 'eq', value: 'a' },
        right: { kind: 'present', attr: { attr: 'Title' } },
      },
      right: { kind: 'not', expr: { kind: 'compare', attr: { attr: 'Active' }, op: 'eq', value: true } },
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['NULL', null],
    ['42', 42],
    ['-1.5e3', -1500],
    ['0', 0],
    ['0.25', 0.25],
    ['""', ''],
    ['"a\\"b\\\\c\\/d\\n\\t\\u00e9"', 'a"b\\c/d\n\té'],
  ])('reads value %s', (text, value) => {
    expect(parseFilter(`x eq ${text}`)).toEqual({ kind: 'compare', attr: { attr: 'x' }, op: 'eq', value });
  });

  it('keeps brackets, parentheses and keywords inside strings as text', () => {
    expect(parseFilter('x eq "a) or [b] and not ("')).toEqual({
      kind: 'compare',
      attr: { attr: 'x' },
      op: 'eq',
      value: 'a) or [b] and not (',
    });
  });

  it('needs no whitespace around parentheses and brackets', () => {
    expect(parseFilter('(a eq 1)and claims[type pr]')).toEqual({
      kind: 'and',
      left: { kind: 'compare', attr: { attr: 'a' }, op: 'eq', value: 1 },
      right: { kind: 'valuePath', attr: 'claims', filter: { kind: 'present', attr: { attr: 'type' } } },
    });
  });

  it('splits the sub-attribute after a URN prefix and keeps the prefix', () => {
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName pr')).toEqual({
      kind: 'present',
      attr: { attr: 'urn:ietf:params:scim:schemas:core:2.0:User:name', sub: 'familyName' },
    });
  });

  it('reads a value path with a URN attribute name', () => {
    expect(parseFilter('urn:x:claims[value eq "v"]')).toEqual({
      kind: 'valuePath',
      attr: 'urn:x:claims',
      filter: { kind: 'compare', attr: { attr: 'value' }, op: 'eq', value: 'v' },
    });
  });

  it('accepts attribute names with $, _ and -', () => {
    expect(parseFilter('$ref pr and _a-b pr')).toEqual({
      kind: 'and',
      left: { kind: 'present', attr: { attr: '$ref' } },
      right: { kind: 'present', attr: { attr: '_a-b' } },
    });
  });
});

describe('parseFilter: precedence and grouping', () => {
  const a = { kind: 'compare', attr: { attr: 'a' }, op: 'eq', value: 1 } as const;
  const b = { kind: 'compare', attr: { attr: 'b' }, op: 'eq', value: 2 } as const;
  const c = { kind: 'compare', attr: { attr: 'c' }, op: 'eq', value: 3 } as const;

  it('binds and tighter than or', () => {
    expect(parseFilter('a eq 1 or b eq 2 and c eq 3')).toEqual({
      kind: 'or',
      left: a,
      right: { kind: 'and', left: b, right: c },
    });
    expect(parseFilter('a eq 1 and b eq 2 or c eq 3')).toEqual({
      kind: 'or',
      left: { kind: 'and', left: a, right: b },
      right: c,
    });
  });

  it('binds not tighter than and', () => {
    expect(parseFilter('not (a eq 1) and b eq 2')).toEqual({
      kind: 'and',
      left: { kind: 'not', expr: a },
      right: b,
    });
    expect(parseFilter('not a eq 1 or b eq 2')).toEqual({ kind: 'or', left: { kind: 'not', expr: a }, right: b });
  });

  it('groups chains to the left', () => {
    expect(parseFilter('a eq 1 or b eq 2 or c eq 3')).toEqual({
      kind: 'or',
      left: { kind: 'or', left: a, right: b },
      right: c,
    });
  });

  it('lets parentheses override precedence', () => {
    expect(parseFilter('a eq 1 and (b eq 2 or c eq 3)')).toEqual({
      kind: 'and',
      left: a,
      right: { kind: 'or', left: b, right: c },
    });
  });

  it('reads nested parentheses', () => {
    expect(parseFilter('((a eq 1) and ((b eq 2) or (((c eq 3)))))')).toEqual({
      kind: 'and',
      left: a,
      right: { kind: 'or', left: b, right: c },
    });
  });

  it('reads double negation', () => {
    expect(parseFilter('not (not (a eq 1))')).toEqual({ kind: 'not', expr: { kind: 'not', expr: a } });
  });

  it('reads not, or and parentheses inside a value path', () => {
    expect(parseFilter('claims[not (type eq "x") or (value sw "a")]')).toEqual({
      kind: 'valuePath',
      attr: 'claims',
      filter: {
        kind: 'or',
        left: { kind: 'not', expr: { kind: 'compare', attr: { attr: 'type' }, op: 'eq', value: 'x' } },
        right: { kind: 'compare', attr: { attr: 'value' }, op: 'sw', value: 'a' },
      },
    });
  });

  it('treats not followed by an operator as an attribute name', () => {
    expect(parseFilter('not pr')).toEqual({ kind: 'present', attr: { attr: 'not' } });
  });
});

describe('parseFilter: errors', () => {
  it.each([
    ['', 'Invalid filter: filter is empty'],
    ['   ', 'Invalid filter: filter is empty'],
    [
      '(userName eq "a"',
      "Invalid filter: expected ')' to close the '(' at position 1, found end of filter at position 17",
    ],
    ['userName eq "a")', "Invalid filter: unexpected ')', expected 'and', 'or' or end of filter at position 16"],
    ['((a eq 1)', "Invalid filter: expected ')' to close the '(' at position 1, found end of filter at position 10"],
    [
      'userName eq',
      "Invalid filter: expected a value (a quoted string, a number, true, false or null) after 'eq', found end of filter at position 12",
    ],
    [
      'userName eq bjensen',
      "Invalid filter: expected a value (a quoted string, a number, true, false or null) after 'eq', found 'bjensen' at position 13",
    ],
    ['userName xx "a"', "Invalid filter: unknown operator 'xx' at position 10"],
    ['userName', "Invalid filter: expected an operator after 'userName', found end of filter at position 9"],
    ['userName "a"', 'Invalid filter: expected an operator after \'userName\', found string "a" at position 10'],
    ['userName eq "a" foo', "Invalid filter: unexpected 'foo', expected 'and', 'or' or end of filter at position 17"],
    ['userName eq "a" and', 'Invalid filter: expected an attribute name, found end of filter at position 20'],
    ['and a pr', "Invalid filter: expected an attribute name, found 'and' at position 1"],
    ['userName eq "abc', 'Invalid filter: unterminated string at position 13'],
    ['userName eq "abc\\"', 'Invalid filter: unterminated string at position 13'],
    ['userName eq "a\\x"', "Invalid filter: invalid escape '\\x' in string at position 15"],
    ['userName eq "a\\u12"', "Invalid filter: invalid escape '\\u12\"' in string at position 15"],
    ['userName = "a"', "Invalid filter: unexpected character '=' at position 10"],
    ["userName eq 'a'", "Invalid filter: unexpected character ''' at position 13"],
    ['x eq 01', "Invalid filter: invalid number '01' at position 6"],
    ['x eq 1abc', "Invalid filter: invalid number '1abc' at position 6"],
    ['x eq -', "Invalid filter: invalid number '-' at position 6"],
    ['x eq 1e999', "Invalid filter: number '1e999' is out of range at position 6"],
    ['a.b.c pr', "Invalid filter: invalid attribute name 'a.b.c' at position 1"],
    ['a: pr', "Invalid filter: invalid attribute name 'a:' at position 1"],
    ['urn:x: pr', "Invalid filter: invalid attribute name 'urn:x:' at position 1"],
    ['()', "Invalid filter: expected an attribute name, found ')' at position 2"],
    [
      'claims[type eq "x"',
      "Invalid filter: expected ']' to close the '[' at position 7, found end of filter at position 19",
    ],
    ['claims[]', "Invalid filter: expected an attribute name, found ']' at position 8"],
    ['claims[type eq "x")', "Invalid filter: expected ']' to close the '[' at position 7, found ')' at position 19"],
    ['a[b[c pr]]', 'Invalid filter: a value path cannot be nested in another value path at position 4'],
    ['a.b[c pr]', "Invalid filter: a value path needs a multi-valued attribute, not 'a.b' at position 4"],
    [
      'claims[type pr].value eq "x"',
      "Invalid filter: unexpected '.value', expected 'and', 'or' or end of filter at position 16",
    ],
  ])('rejects %j', (text, message) => {
    const err = errorOf(text);
    expect(err).toBeInstanceOf(InvalidFilterError);
    expect(err.name).toBe('InvalidFilterError');
    expect(err.message).toBe(message);
  });

  it('reports the position of the problem', () => {
    const err = errorOf('userName xx "a"');
    expect(err.position).toBe(10);
    expect(err.reason).toBe("unknown operator 'xx'");
  });

  it('accepts nesting up to the limit and rejects deeper nesting', () => {
    const nested = (depth: number) => `${'('.repeat(depth)}a pr${')'.repeat(depth)}`;
    expect(parseFilter(nested(MAX_FILTER_DEPTH))).toEqual({ kind: 'present', attr: { attr: 'a' } });
    expect(errorOf(nested(MAX_FILTER_DEPTH + 1)).message).toBe(
      `Invalid filter: filter is nested too deeply at position ${MAX_FILTER_DEPTH + 1}`,
    );
    expect(errorOf(`${'not '.repeat(MAX_FILTER_DEPTH + 1)}a pr`).reason).toBe('filter is nested too deeply');
    expect(errorOf('('.repeat(100000)).reason).toBe('filter is nested too deeply');
  });
});
