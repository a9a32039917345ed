import { InvalidFilterError, parseFilter } from '@idsvc/shared';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { type FilterSchema, filterToSql } from './filter-sql.js';

const column = (name: string) => sql`${sql.identifier('u')}.${sql.identifier(name)}`;

const schema: FilterSchema = {
  attributes: {
    id: { sql: column('id'), type: 'string', caseExact: true },
    username: { sql: column('user_name'), type: 'string' },
    active: { sql: column('active'), type: 'boolean' },
    logincount: { sql: column('login_count'), type: 'number' },
    createdat: { sql: column('created_at'), type: 'datetime' },
    'meta.created': { sql: column('created_at'), type: 'datetime' },
  },
  multiValued: {
    claims: {
      exists: (condition) => sql`EXISTS (SELECT 1 FROM c WHERE c.user_id = u.id AND ${condition})`,
      sub: {
        type: { sql: sql.raw('c.type'), type: 'string', caseExact: true },
        value: { sql: sql.raw('c.value'), type: 'string' },
      },
      primary: 'value',
    },
    groups: {
      exists: (condition) => sql`EXISTS (SELECT 1 FROM g WHERE g.user_id = u.id AND ${condition})`,
      sub: { name: { sql: sql.raw('g.name'), type: 'string' } },
      primary: 'name',
    },
  },
};

const dialect = new PgDialect();

function render(filter: string): { sql: string; params: unknown[] } {
  const { sql: text, params } = dialect.sqlToQuery(filterToSql(parseFilter(filter), schema));
  return { sql: text, params };
}

describe('filterToSql: strings', () => {
  it.each([
    ['userName eq "BJensen"', 'lower("u"."user_name") = lower($1)', ['BJensen']],
    ['userName ne "BJensen"', 'lower("u"."user_name") IS DISTINCT FROM lower($1)', ['BJensen']],
    ['userName co "Jen"', 'lower("u"."user_name") LIKE lower($1)', ['%Jen%']],
    ['userName sw "BJ"', 'lower("u"."user_name") LIKE lower($1)', ['BJ%']],
    ['userName ew "sen"', 'lower("u"."user_name") LIKE lower($1)', ['%sen']],
    ['userName gt "m"', 'lower("u"."user_name") > lower($1)', ['m']],
    ['userName ge "m"', 'lower("u"."user_name") >= lower($1)', ['m']],
    ['userName lt "m"', 'lower("u"."user_name") < lower($1)', ['m']],
    ['userName le "m"', 'lower("u"."user_name") <= lower($1)', ['m']],
    ['userName pr', '("u"."user_name" IS NOT NULL AND "u"."user_name" <> \'\')', []],
    ['userName eq null', '"u"."user_name" IS NULL', []],
    ['userName ne null', '"u"."user_name" IS NOT NULL', []],
  ])('%s', (filter, text, params) => {
    expect(render(filter)).toEqual({ sql: text, params });
  });

  it('escapes %, _ and \\ in co / sw / ew values', () => {
    expect(render('userName co "50%_a\\\\b"')).toEqual({
      sql: 'lower("u"."user_name") LIKE lower($1)',
      params: ['%50\\%\\_a\\\\b%'],
    });
  });

  it.each([
    ['id eq "AbC"', '"u"."id" = $1', ['AbC']],
    ['id ne "AbC"', '"u"."id" IS DISTINCT FROM $1', ['AbC']],
    ['id sw "Ab"', '"u"."id" LIKE $1', ['Ab%']],
    ['id lt "b"', '"u"."id" < $1', ['b']],
  ])('compares a caseExact attribute as written: %s', (filter, text, params) => {
    expect(render(filter)).toEqual({ sql: text, params });
  });

  it('reads attribute names case-insensitively and resolves a URN-prefixed name to its last segment', () => {
    const expected = { sql: 'lower("u"."user_name") = lower($1)', params: ['x'] };
    expect(render('USERNAME eq "x"')).toEqual(expected);
    expect(render('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x"')).toEqual(expected);
  });
});

describe('filterToSql: booleans, numbers and date-times', () => {
  it.each([
    ['active eq true', '"u"."active" = $1', [true]],
    ['active ne false', '"u"."active" IS DISTINCT FROM $1', [false]],
    ['active pr', '"u"."active" IS NOT NULL', []],
    ['loginCount eq 3', '"u"."login_count" = $1', [3]],
    ['loginCount ne 3', '"u"."login_count" IS DISTINCT FROM $1', [3]],
    ['loginCount gt 3', '"u"."login_count" > $1', [3]],
    ['loginCount ge 3', '"u"."login_count" >= $1', [3]],
    ['loginCount lt 3.5', '"u"."login_count" < $1', [3.5]],
    ['loginCount le -1', '"u"."login_count" <= $1', [-1]],
    ['createdAt gt "2011-05-13T04:42:34Z"', '"u"."created_at" > $1::timestamptz', ['2011-05-13T04:42:34Z']],
    ['createdAt eq "2011-05-13"', '"u"."created_at" = $1::timestamptz', ['2011-05-13']],
    [
      'createdAt ne "2011-05-13T04:42:34.123+02:00"',
      '"u"."created_at" IS DISTINCT FROM $1::timestamptz',
      ['2011-05-13T04:42:34.123+02:00'],
    ],
    ['meta.created le "2011-05-13T04:42:34Z"', '"u"."created_at" <= $1::timestamptz', ['2011-05-13T04:42:34Z']],
    ['createdAt pr', '"u"."created_at" IS NOT NULL', []],
  ])('%s', (filter, text, params) => {
    expect(render(filter)).toEqual({ sql: text, params });
  });
});

describe('filterToSql: multi-valued attributes', () => {
  const claims = (condition: string) => `EXISTS (SELECT 1 FROM c WHERE c.user_id = u.id AND ${condition})`;
  const groups = (condition: string) => `EXISTS (SELECT 1 FROM g WHERE g.user_id = u.id AND ${condition})`;

  it.each([
    [
      'claims[type eq "urn:x" and value sw "a"]',
      claims('(c.type = $1 AND lower(c.value) LIKE lower($2))'),
      ['urn:x', 'a%'],
    ],
    ['claims.value eq "x"', claims('lower(c.value) = lower($1)'), ['x']],
    ['Claims.Type pr', claims("(c.type IS NOT NULL AND c.type <> '')"), []],
    ['groups eq "Staff"', groups('lower(g.name) = lower($1)'), ['Staff']],
    ['groups co "aff"', groups('lower(g.name) LIKE lower($1)'), ['%aff%']],
    ['groups pr', groups('true'), []],
    ['groups ne null', groups('true'), []],
    ['groups eq null', `NOT ${groups('true')}`, []],
    [
      'groups[name eq "a" or not (name eq "b")]',
      groups('(lower(g.name) = lower($1) OR NOT coalesce(lower(g.name) = lower($2), false))'),
      ['a', 'b'],
    ],
  ])('%s', (filter, text, params) => {
    expect(render(filter)).toEqual({ sql: text, params });
  });
});

describe('filterToSql: logic', () => {
  it('parenthesises and / or following the parsed precedence', () => {
    expect(render('userName eq "a" or active eq true and not (loginCount gt 1)')).toEqual({
      sql: '(lower("u"."user_name") = lower($1) OR ("u"."active" = $2 AND NOT coalesce("u"."login_count" > $3, false)))',
      params: ['a', true, 1],
    });
    expect(render('(userName eq "a" or active eq true) and loginCount gt 1')).toEqual({
      sql: '((lower("u"."user_name") = lower($1) OR "u"."active" = $2) AND "u"."login_count" > $3)',
      params: ['a', true, 1],
    });
  });

  it('negates a group, reading an unknown (NULL) comparison as false', () => {
    expect(render('not (userName eq "a" or active eq true)')).toEqual({
      sql: 'NOT coalesce((lower("u"."user_name") = lower($1) OR "u"."active" = $2), false)',
      params: ['a', true],
    });
  });

  it('binds every value as a parameter, never as SQL text', () => {
    expect(render('userName eq "x\'); DROP TABLE u; --"')).toEqual({
      sql: 'lower("u"."user_name") = lower($1)',
      params: ["x'); DROP TABLE u; --"],
    });
  });
});

describe('filterToSql: errors', () => {
  it.each([
    ['nickName eq "x"', "Invalid filter: unknown attribute 'nickName'"],
    ['urn:x:nickName eq "x"', "Invalid filter: unknown attribute 'urn:x:nickName'"],
    ['meta.version eq "x"', "Invalid filter: unknown attribute 'meta.version'"],
    ['userName.first eq "x"', "Invalid filter: unknown sub-attribute 'first' of 'userName'"],
    ['claims.kind eq "x"', "Invalid filter: unknown sub-attribute 'kind' of 'claims'"],
    ['claims[kind eq "x"]', "Invalid filter: unknown attribute 'kind'"],
    ['emails[type eq "x"]', "Invalid filter: unknown attribute 'emails'"],
    ['userName[type eq "x"]', "Invalid filter: 'userName' is not a multi-valued attribute and cannot take a [filter]"],
    [
      'active gt "x"',
      "Invalid filter: operator 'gt' does not apply to boolean attribute 'active' (use 'eq', 'ne' and 'pr')",
    ],
    [
      'active co "x"',
      "Invalid filter: operator 'co' does not apply to boolean attribute 'active' (use 'eq', 'ne' and 'pr')",
    ],
    ['active eq "true"', 'Invalid filter: attribute \'active\' must be compared with true or false, not "true"'],
    ['userName eq 1', "Invalid filter: attribute 'userName' must be compared with a string, not 1"],
    ['userName eq true', "Invalid filter: attribute 'userName' must be compared with a string, not true"],
    ['loginCount eq "1"', 'Invalid filter: attribute \'loginCount\' must be compared with a number, not "1"'],
    [
      'loginCount sw 1',
      "Invalid filter: operator 'sw' does not apply to number attribute 'loginCount' (use 'eq', 'ne', 'gt', 'ge', 'lt', 'le' and 'pr')",
    ],
    [
      'createdAt co "2011"',
      "Invalid filter: operator 'co' does not apply to date-time attribute 'createdAt' (use 'eq', 'ne', 'gt', 'ge', 'lt', 'le' and 'pr')",
    ],
    [
      'createdAt gt "yesterday"',
      'Invalid filter: attribute \'createdAt\' must be compared with a date-time string such as "2024-01-31T12:00:00Z", not "yesterday"',
    ],
    [
      'createdAt gt "2023-02-29"',
      'Invalid filter: attribute \'createdAt\' must be compared with a date-time string such as "2024-01-31T12:00:00Z", not "2023-02-29"',
    ],
    [
      'createdAt gt "2024-01-01T24:00:00Z"',
      'Invalid filter: attribute \'createdAt\' must be compared with a date-time string such as "2024-01-31T12:00:00Z", not "2024-01-01T24:00:00Z"',
    ],
    [
      'createdAt gt 5',
      'Invalid filter: attribute \'createdAt\' must be compared with a date-time string such as "2024-01-31T12:00:00Z", not 5',
    ],
    ['userName gt null', "Invalid filter: operator 'gt' cannot compare 'userName' with null"],
  ])('rejects %s', (filter, message) => {
    const node = parseFilter(filter);
    let thrown: unknown;
    try {
      filterToSql(node, schema);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InvalidFilterError);
    expect((thrown as InvalidFilterError).message).toBe(message);
  });
});
