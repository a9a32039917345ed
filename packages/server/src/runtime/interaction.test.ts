import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box.js';
import { newInteraction, openInteraction, sealInteraction } from './interaction.js';
import { halfHash } from './signing.js';

const box = new SecretBox(randomBytes(32));

describe('sealed interactions', () => {
  it('open what was sealed, and nothing changed, foreign or expired', () => {
    const interaction = newInteraction({ kind: 'authorize', params: [['client_id', 'app']] });
    const sealed = sealInteraction(box, interaction);
    expect(openInteraction(box, sealed)).toEqual(interaction);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(openInteraction(box, tampered)).toBeUndefined();
    expect(openInteraction(new SecretBox(randomBytes(32)), sealed)).toBeUndefined();
    expect(openInteraction(box, sealed, interaction.expiresAt + 1)).toBeUndefined();
  });
});

describe('halfHash', () => {
  it('is the left half of the hash of the ID token algorithm (OpenID Connect Core at_hash)', () => {
    expect(halfHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'RS256')).toBe('77QmUPtjPfzWtF2AnpK9RQ');
    expect(halfHash('x', 'HS512')).toHaveLength(43);
  });
});
