import { describe, expect, it } from 'vitest';
import { defaultPasswordRule, type FieldRuleValues, fieldRuleViolations } from './field-rules.js';

const strict: FieldRuleValues = {
  ...defaultPasswordRule,
  minimumLength: 10,
  maximumLength: 20,
  requireUppercase: true,
  requireLowercase: true,
  requireDigit: true,
  requireSpecial: true,
};

describe('fieldRuleViolations', () => {
  it('asks only for 8 characters under the default password rule', () => {
    expect(fieldRuleViolations(defaultPasswordRule, 'abcdefgh')).toEqual([]);
    expect(fieldRuleViolations(defaultPasswordRule, 'abcdefg')).toEqual([
      'password must be at least 8 characters long',
    ]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(fieldRuleViolations(defaultPasswordRule, '😀😀😀😀😀😀😀')).toEqual([
      'password must be at least 8 characters long',
    ]);
  });

  it('names every broken requirement', () => {
    expect(fieldRuleViolations(strict, 'short')).toEqual([
      'password must be at least 10 characters long',
      'password must contain an upper-case letter',
      'password must contain a digit',
      'password must contain a special character (not a letter, digit or space)',
    ]);
    expect(fieldRuleViolations(strict, 'ALLUPPERCASE1234567890!')).toEqual([
      'password must be at most 20 characters long',
      'password must contain a lower-case letter',
    ]);
  });

  it('accepts a password that meets every requirement, letters of any script included', () => {
    expect(fieldRuleViolations(strict, 'Correct-H0rse')).toEqual([]);
    expect(fieldRuleViolations(strict, 'Ärger-über-9ß')).toEqual([]);
  });

  it('does not count a space as a special character', () => {
    expect(fieldRuleViolations({ ...defaultPasswordRule, requireSpecial: true }, 'abc defgh')).toEqual([
      'password must contain a special character (not a letter, digit or space)',
    ]);
  });

  it('matches the regular expression against the whole value and tells its error message', () => {
    const rule = { ...defaultPasswordRule, regularExpression: '[a-z]+', errorMessage: 'only lower-case letters' };
    expect(fieldRuleViolations(rule, 'abcdefghij')).toEqual([]);
    expect(fieldRuleViolations(rule, 'abcdefghij1')).toEqual(['only lower-case letters']);
    expect(fieldRuleViolations({ ...rule, errorMessage: null }, 'abcdefghij1')).toEqual([
      'password must match the pattern [a-z]+',
    ]);
  });

  it('names the field of a rule other than the password', () => {
    expect(fieldRuleViolations({ ...defaultPasswordRule, fieldName: 'userName', minimumLength: 3 }, 'ab')).toEqual([
      'userName must be at least 3 characters long',
    ]);
  });
});
