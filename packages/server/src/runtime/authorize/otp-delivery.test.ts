import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeDigest, codeSettings, destinationOf, generateCode, maskEmail, maskPhoneNumber } from './otp-delivery.js';
import type { CodeFactor } from './second-factor-connection.js';

const factor = (pluginType: CodeFactor['pluginType'], configuration: Record<string, unknown> = {}): CodeFactor => ({
  pluginType,
  connectionId: '5b0c2a4e-0f0e-4f43-9d0b-0c9a6f3c1a11',
  name: pluginType,
  configuration,
});

describe('maskPhoneNumber', () => {
  it('shows the last four digits only', () => {
    expect(maskPhoneNumber('+31612345678')).toBe('••••5678');
    expect(maskPhoneNumber('+31 6 1234 5678')).toBe('••••5678');
  });
});

describe('maskEmail', () => {
  it('shows the first character of the local part and the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('j@example.com')).toBe('j•••@example.com');
  });

  it('shows nothing of an address without a local part', () => {
    expect(maskEmail('@example.com')).toBe('•••');
    expect(maskEmail('no-at-sign')).toBe('•••');
  });
});

describe('destinationOf', () => {
  it('sends SMS codes to the phone number in international form, masked on the page', () => {
    expect(destinationOf(factor('SmsOtp'), { phoneNumber: '0031 6 12345678', email: 'a@b.org' })).toEqual({
      address: '+31612345678',
      delivery: { channel: 'sms', to: '••••5678' },
    });
  });

  it('has no destination for a user without a phone number, or one that is not international', () => {
    expect(destinationOf(factor('SmsOtp'), { phoneNumber: null, email: 'a@b.org' })).toBeUndefined();
    expect(destinationOf(factor('SmsOtp'), { phoneNumber: '0612345678', email: 'a@b.org' })).toBeUndefined();
  });

  it('sends e-mail codes to the e-mail address; none without one', () => {
    expect(destinationOf(factor('EmailOtp'), { phoneNumber: null, email: 'jane@example.com' })).toEqual({
      address: 'jane@example.com',
      delivery: { channel: 'email', to: 'j•••@example.com' },
    });
    expect(destinationOf(factor('EmailOtp'), { phoneNumber: '+31612345678', email: null })).toBeUndefined();
  });
});

describe('generateCode', () => {
  it('makes codes of the length asked, decimal digits only, that differ', () => {
    const codes = Array.from({ length: 50 }, () => generateCode());
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(40);
    expect(generateCode(8)).toMatch(/^\d{8}$/);
  });
});

describe('codeSettings', () => {
  it('takes six digits and five minutes unless the configuration says otherwise', () => {
    expect(codeSettings(factor('SmsOtp'))).toEqual({ length: 6, lifetime: 300 });
    expect(codeSettings(factor('EmailOtp', { codeLength: 8, codeLifetime: 60 }))).toEqual({ length: 8, lifetime: 60 });
  });

  it('falls back to the defaults for a configuration that is not valid', () => {
    expect(codeSettings(factor('EmailOtp', { codeLifetime: 'soon' }))).toEqual({ length: 6, lifetime: 300 });
  });
});

describe('codeDigest', () => {
  const key = randomBytes(32);
  const owner = { userId: 'c4a1b1f2-54a4-4f55-8c43-4a1bd6f39a01', connectionId: factor('SmsOtp').connectionId };

  it('is a keyed SHA-256 digest (base64url, 32 bytes) that does not contain the code', () => {
    const digest = codeDigest(key, owner, '123456');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digest).not.toContain('123456');
    expect(codeDigest(key, owner, '123456')).toBe(digest);
  });

  it('differs per code, per owner and per key', () => {
    const digest = codeDigest(key, owner, '123456');
    expect(codeDigest(key, owner, '123457')).not.toBe(digest);
    expect(codeDigest(key, { ...owner, userId: 'b3d4c1f2-54a4-4f55-8c43-4a1bd6f39a02' }, '123456')).not.toBe(digest);
    expect(codeDigest(key, { ...owner, connectionId: owner.userId }, '123456')).not.toBe(digest);
    expect(codeDigest(randomBytes(32), owner, '123456')).not.toBe(digest);
  });
});
