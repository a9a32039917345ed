import { describe, expect, it } from 'vitest';
import { certificatesIn, normalizeThumbprint } from './read.js';

const der = Buffer.concat([Buffer.from([0x30, 0x82, 0x01, 0x00]), Buffer.alloc(256, 7)]);
const pem = (bytes: Buffer) => `-----BEGIN CERTIFICATE-----\n${bytes.toString('base64')}\n-----END CERTIFICATE-----\n`;

describe('certificate files', () => {
  it('reads DER, base64 of DER, and every certificate of a PEM bundle', () => {
    expect(certificatesIn('a.der', der)).toEqual([{ source: 'a.der', base64: der.toString('base64') }]);
    expect(certificatesIn('a.b64', Buffer.from(der.toString('base64')))).toEqual([
      { source: 'a.b64', base64: der.toString('base64') },
    ]);
    expect(certificatesIn('bundle.pem', Buffer.from(pem(der) + pem(der))).map((c) => c.source)).toEqual([
      'bundle.pem#1',
      'bundle.pem#2',
    ]);
    expect(() => certificatesIn('x.txt', Buffer.from('hello'))).toThrow(
      'x.txt: not a certificate in PEM, DER or base64',
    );
  });

  it('normalizes thumbprints', () => {
    expect(normalizeThumbprint('2d:95:d5 1e')).toBe('2D95D51E');
  });
});
