import { describe, expect, it } from 'vitest';
import { chooseLanguage, text } from './texts.js';

describe('chooseLanguage', () => {
  it('takes the first supported ui_locales tag', () => {
    expect(chooseLanguage('fr nl-BE en', 'en', 'en')).toBe('nl');
    expect(chooseLanguage('EN-gb', 'nl', 'nl')).toBe('en');
  });

  it('falls back to Accept-Language by q-value, then to the default', () => {
    expect(chooseLanguage(undefined, 'de-DE, en;q=0.5, nl;q=0.9', 'en')).toBe('nl');
    expect(chooseLanguage('fr', 'nl;q=0, fr', 'en')).toBe('en');
    expect(chooseLanguage(undefined, undefined, 'nl')).toBe('nl');
  });
});

describe('text', () => {
  it('puts values into the text of the language', () => {
    expect(text('en', 'login.intro', { client: 'Portal' })).toBe('Sign in to continue to Portal.');
    expect(text('nl', 'login.intro', { client: 'Portal' })).toBe('Meld u aan om verder te gaan naar Portal.');
  });
});
