import { PGlite } from '@electric-sql/pglite';
import { parseFilter } from '@idsvc/shared';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilterSchema, filterToSql } from './filter-sql.js';

const column = (table: string, name: string) => sql`${sql.identifier(table)}.${sql.identifier(name)}`;

const schema: FilterSchema = {
  attributes: {
    id: { sql: column('users', 'id'), type: 'string', caseExact: true },
    username: { sql: column('users', 'user_name'), type: 'string' },
    email: { sql: column('users', 'email'), type: 'string' },
    displayname: { sql: column('users', 'display_name'), type: 'string' },
    active: { sql: column('users', 'active'), type: 'boolean' },
    logincount: { sql: column('users', 'login_count'), type: 'number' },
    createdat: { sql: column('users', 'created_at'), type: 'datetime' },
    'meta.created': { sql: column('users', 'created_at'), type: 'datetime' },
  },
  multiValued: {
    claims: {
      exists: (condition: SQL) =>
        sql`EXISTS (SELECT 1 FROM user_claims WHERE user_claims.user_id = users.id AND ${condition})`,
      sub: {
        type: { sql: column('user_claims', 'type'), type: 'string', caseExact: true },
        value: { sql: column('user_claims', 'value'), type: 'string' },
      },
      primary: 'value',
    },
    groups: {
      exists: (condition: SQL) =>
        sql`EXISTS (SELECT 1 FROM user_groups JOIN groups ON groups.id = user_groups.group_id
          WHERE user_groups.user_id = users.id AND ${condition})`,
      sub: { name: { sql: column('groups', 'name'), type: 'string' } },
      primary: 'name',
    },
  },
};

const client = new PGlite();
const db = drizzle(client);

beforeAll(async () => {
  await client.exec(`
    CREATE TABLE users (
      id text PRIMARY KEY, user_name text NOT NULL, email text, display_name text,
      active boolean, login_count integer, created_at timestamptz
    );
    CREATE INDEX users_user_name_lower ON users (lower(user_name));
    CREATE TABLE user_claims (user_id text NOT NULL REFERENCES users(id), type text NOT NULL, value text);
    CREATE TABLE groups (id integer PRIMARY KEY, name text NOT NULL);
    CREATE TABLE user_groups (user_id text NOT NULL REFERENCES users(id), group_id integer NOT NULL REFERENCES groups(id));
    INSERT INTO users VALUES
      ('u1', 'bjensen', 'bjensen@example.com', 'Barbara Jensen', true, 5, '2011-05-13T04:42:34Z'),
      ('u2', 'jsmith', 'JSmith@Example.org', 'John Smith', false, 0, '2012-01-01T00:00:00Z'),
      ('u3', 'Ärger_100%', NULL, '', NULL, NULL, '2020-06-01T12:00:00+02:00'),
      ('u4', 'omalley', 'omalley@example.com', 'O''Malley', true, 12, '2011-05-13T04:42:35Z');
    INSERT INTO user_claims VALUES
      ('u1', 'urn:x', 'alpha'), ('u1', 'urn:y', 'beta'), ('u2', 'urn:x', 'bravo'), ('u4', 'urn:x', 'Alpha2');
    INSERT INTO groups VALUES (1, 'Staff'), (2, 'Admins'), (3, 'Guests');
    INSERT INTO user_groups VALUES ('u1', 1), ('u1', 2), ('u2', 3), ('u4', 1);
  `);
});

afterAll(async () => {
  await client.close();
});

async function matching(filter: string): Promise<string[]> {
  const condition = filterToSql(parseFilter(filter), schema);
  const result = await db.execute<{ id: string }>(sql`SELECT id FROM users WHERE ${condition} ORDER BY id`);
  return result.rows.map((row) => row.id);
}

describe('filterToSql against PGlite', () => {
  it.each([
    // RFC 7644 §3.4.2.2 examples, adapted to these tables
    ['userName eq "BJENSEN"', ['u1']],
    ['displayName co "o\'MALLEY"', ['u4']],
    ['userName sw "J"', ['u2']],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "j"', ['u2']],
    ['displayName pr', ['u1', 'u2', 'u4']],
    ['meta.created gt "2011-05-13T04:42:34Z"', ['u2', 'u3', 'u4']],
    ['meta.created ge "2011-05-13T04:42:34Z"', ['u1', 'u2', 'u3', 'u4']],
    ['meta.created lt "2011-05-13T04:42:35Z"', ['u1']],
    ['meta.created le "2011-05-13T06:42:35+02:00"', ['u1', 'u4']],
    ['displayName pr and active eq true', ['u1', 'u4']],
    ['displayName pr or active eq false', ['u1', 'u2', 'u4']],
    ['active eq false or (claims co "alpha" or claims.value co "bravo")', ['u1', 'u2', 'u4']],
    ['userName ne "JSMITH" and not (claims co "alpha" or claims.value co "bravo")', ['u3']],
    ['active eq true and (claims.type eq "urn:y")', ['u1']],
    ['active eq true and claims[type eq "urn:x" and value sw "A"]', ['u1', 'u4']],
    ['claims[type eq "urn:x" and value sw "a"] or groups[name eq "guests"]', ['u1', 'u2', 'u4']],
  ])('RFC-style %s', async (filter, ids) => {
    expect(await matching(filter)).toEqual(ids);
  });

  it.each([
    ['email ew "EXAMPLE.COM"', ['u1', 'u4']],
    ['email eq "jsmith@example.ORG"', ['u2']],
    ['email ne "bjensen@example.com"', ['u2', 'u3', 'u4']],
    ['email eq null', ['u3']],
    ['email pr', ['u1', 'u2', 'u4']],
    ['userName gt "JSMITH"', ['u3', 'u4']],
    ['userName le "jsmith"', ['u1', 'u2']],
    ['userName co "_100%"', ['u3']],
    ['userName sw "b_"', []],
    ['userName sw "Är"', ['u3']],
    ['id eq "u1"', ['u1']],
    ['id eq "U1"', []],
  ])('strings: %s', async (filter, ids) => {
    expect(await matching(filter)).toEqual(ids);
  });

  it.each([
    ['active eq true', ['u1', 'u4']],
    ['active eq false', ['u2']],
    ['active ne true', ['u2', 'u3']],
    ['active pr', ['u1', 'u2', 'u4']],
    ['loginCount gt 4', ['u1', 'u4']],
    ['loginCount le 0', ['u2']],
    ['loginCount ne 5', ['u2', 'u3', 'u4']],
    ['loginCount eq null', ['u3']],
    ['createdAt eq "2020-06-01T10:00:00Z"', ['u3']],
    ['createdAt ne "2020-06-01T10:00:00Z"', ['u1', 'u2', 'u4']],
    ['createdAt lt "2012-01-01"', ['u1', 'u4']],
  ])('booleans, numbers and date-times: %s', async (filter, ids) => {
    expect(await matching(filter)).toEqual(ids);
  });

  it.each([
    ['groups eq "staff"', ['u1', 'u4']],
    ['groups eq "Admins"', ['u1']],
    ['not (groups eq "staff")', ['u2', 'u3']],
    ['groups pr', ['u1', 'u2', 'u4']],
    ['groups eq null', ['u3']],
    ['groups[name sw "g"]', ['u2']],
    ['claims[type eq "urn:y" and value sw "a"]', []],
    ['claims.type eq "urn:y" and claims.value sw "a"', ['u1']],
    ['claims.type eq "URN:X"', []],
    ['claims pr', ['u1', 'u2', 'u4']],
    ['not (not (userName eq "bjensen"))', ['u1']],
    ['userName eq "x" or userName eq "jsmith" and active eq false', ['u2']],
    ['(userName eq "bjensen" or userName eq "jsmith") and active eq false', ['u2']],
  ])('multi-valued and logic: %s', async (filter, ids) => {
    expect(await matching(filter)).toEqual(ids);
  });

  it('lets an index on lower(column) serve a case-insensitive eq', async () => {
    const condition = filterToSql(parseFilter('userName eq "BJensen"'), schema);
    await client.exec('SET enable_seqscan = off');
    try {
      const plan = await db.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT id FROM users WHERE ${condition}`);
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('users_user_name_lower');
    } finally {
      await client.exec('RESET enable_seqscan');
    }
  });

  it('treats a value that looks like SQL as data', async () => {
    expect(await matching("userName eq \"x' OR '1'='1\"")).toEqual([]);
    expect(await matching('userName eq "bjensen"')).toEqual(['u1']);
  });
});
