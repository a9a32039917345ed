import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/api-error.js';
import { localizedContents, settingData } from './shared-setting-rules.js';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('localizedContents', () => {
  it('keeps nl and en contents and fills absent texts with null', () => {
    expect(
      localizedContents([
        { languageCode: 'nl', helpText: 'Hulp' },
        { languageCode: 'en', errorMessage: 'Wrong', helpText: null },
      ]),
    ).toEqual([
      { languageCode: 'nl', helpText: 'Hulp', errorMessage: null },
      { languageCode: 'en', helpText: null, errorMessage: 'Wrong' },
    ]);
    expect(localizedContents(undefined)).toEqual([]);
  });

  it.each(['de', 'NL', 'en-GB', ''])('refuses the language code "%s" with the specification message', (code) => {
    const error = errorOf(() => localizedContents([{ languageCode: 'en' }, { languageCode: code }]));
    expect({ status: error.status, message: error.message }).toEqual({
      status: 400,
      message: 'languageCode is invalid, expected value is one of these values: nl, en',
    });
    expect(error.details).toEqual([
      {
        field: 'localizedContents.1.languageCode',
        value: code,
        message: 'languageCode is invalid, expected value is one of these values: nl, en',
      },
    ]);
  });

  it('refuses two contents in one language', () => {
    const error = errorOf(() => localizedContents([{ languageCode: 'nl' }, { languageCode: 'nl' }]));
    expect({ status: error.status, message: error.message }).toEqual({
      status: 400,
      message: 'localizedContents holds nl more than once',
    });
  });
});

describe('settingData', () => {
  it('stores the trimmed resource key and nulls for absent fields', () => {
    expect(settingData({ name: 'n', resourceKey: ' key ' })).toEqual({
      resourceKey: 'key',
      value: null,
      description: null,
      localizedContents: [],
    });
  });
});
