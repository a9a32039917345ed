import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile, unknownGuid } from './helpers/fixtures.js';

const settings = `${apiBase}/sharedconfigurablesettings`;
const ctx = serverPerFile();
const languageMessage = 'languageCode is invalid, expected value is one of these values: nl, en';
const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function newSetting(fields: Json = {}) {
  const name = unique('setting');
  return (await created(ctx.admin, 'sharedconfigurablesettings', {
    name,
    resourceKey: `${name}.key`,
    ...fields,
  })) as Json & { id: string; name: string; resourceKey: string };
}

describe('SharedConfigurableSettings_GetAll', () => {
  // First in the file: the server starts without settings.
  it('answers 404 while there are no settings', async () => {
    expectError(await ctx.admin.get(settings), 404, 'not_found');
  });

  it('lists the settings by name, or by resourceKey descending', async () => {
    const prefix = unique('list');
    await created(ctx.admin, 'sharedconfigurablesettings', { name: `${prefix}-b`, resourceKey: `${prefix}.1` });
    await created(ctx.admin, 'sharedconfigurablesettings', { name: `${prefix}-a`, resourceKey: `${prefix}.2` });
    const all = await ctx.admin.get(settings);
    expect(all.status).toBe(200);
    expect(names(all.body).filter((n) => n.startsWith(prefix))).toEqual([`${prefix}-a`, `${prefix}-b`]);
    expect(totalCount(all)).toBe((all.body as unknown as Json[]).length);
    const byKey = await ctx.admin.get(settings, { query: { sortBy: 'resourceKey', sortOrder: 'Descending' } });
    expect(names(byKey.body).filter((n) => n.startsWith(prefix))).toEqual([`${prefix}-a`, `${prefix}-b`]);
  });
});

describe('SharedConfigurableSettings_Create', () => {
  it('creates a setting with localized contents and answers 200 with it and its id', async () => {
    const name = unique('create');
    const body = {
      name,
      resourceKey: `${name}.key`,
      value: '42',
      description: 'the answer',
      localizedContents: [
        { languageCode: 'nl', helpText: 'Hulptekst', errorMessage: 'Foutmelding' },
        { languageCode: 'en', helpText: 'Help text' },
      ],
    };
    const response = await ctx.admin.post(settings, { body });
    expect(response.status).toBe(200);
    const setting = response.body as Json;
    expect(setting.id).toMatch(guidPattern);
    expect(setting).toEqual({
      ...body,
      id: setting.id,
      localizedContents: [
        { languageCode: 'nl', helpText: 'Hulptekst', errorMessage: 'Foutmelding' },
        { languageCode: 'en', helpText: 'Help text', errorMessage: null },
      ],
    });
  });

  it('keeps an id given by the caller', async () => {
    const id = crypto.randomUUID();
    const setting = await newSetting({ id });
    expect(setting.id).toBe(id);
  });

  it('answers 400 with the specification message for a language other than nl or en, and creates nothing', async () => {
    const name = unique('lang');
    const response = await ctx.admin.post(settings, {
      body: { name, resourceKey: name, localizedContents: [{ languageCode: 'de', helpText: 'Hilfe' }] },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toBe(languageMessage);
    expectError(await ctx.admin.get(`${settings}/${name}`), 404, 'not_found');
  });

  it('answers 409 for a name or a resourceKey that another setting has', async () => {
    const existing = await newSetting();
    expectError(
      await ctx.admin.post(settings, { body: { name: existing.name.toUpperCase(), resourceKey: unique('k') } }),
      409,
      'conflict',
    );
    expectError(
      await ctx.admin.post(settings, { body: { name: unique('n'), resourceKey: existing.resourceKey.toUpperCase() } }),
      409,
      'conflict',
    );
  });

  it('answers 400 without a resourceKey', async () => {
    expectError(await ctx.admin.post(settings, { body: { name: unique('n') } }), 400, 'invalid_request');
  });
});

describe('SharedConfigurableSettings_Update', () => {
  it('finds the setting by its id, may rename it, and answers 200 with it', async () => {
    const setting = await newSetting({ value: 'old' });
    const renamed = unique('renamed');
    const response = await ctx.admin.put(settings, {
      body: { id: setting.id, name: renamed, resourceKey: setting.resourceKey, value: 'new' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: setting.id,
      name: renamed,
      resourceKey: setting.resourceKey,
      value: 'new',
      description: null,
      localizedContents: [],
    });
    expectError(await ctx.admin.get(`${settings}/${setting.name}`), 404, 'not_found');
    expect((await ctx.admin.get(`${settings}/${renamed}`)).body).toEqual(response.body);
  });

  it('answers 404 for an id no setting has', async () => {
    expectError(
      await ctx.admin.put(settings, { body: { id: unknownGuid, name: unique('n'), resourceKey: unique('k') } }),
      404,
      'not_found',
    );
  });

  it('answers 400 for a missing id and for a language other than nl or en', async () => {
    const setting = await newSetting();
    expectError(
      await ctx.admin.put(settings, { body: { name: setting.name, resourceKey: setting.resourceKey } }),
      400,
      'invalid_request',
    );
    const response = await ctx.admin.put(settings, {
      body: { ...setting, localizedContents: [{ languageCode: 'fr', helpText: 'aide' }] },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toBe(languageMessage);
  });

  it('answers 409 for the resourceKey of another setting', async () => {
    const [first, second] = [await newSetting(), await newSetting()];
    expectError(
      await ctx.admin.put(settings, { body: { ...second, resourceKey: first.resourceKey } }),
      409,
      'conflict',
    );
  });

  it('answers 401 without a token (the row lists no 403)', async () => {
    expectError(await new Api(ctx.server.url).put(settings, { body: {} }), 401, 'unauthorized');
  });
});

describe('SharedConfigurableSettings_GetByName', () => {
  it('answers 200 with the setting, found case-insensitively, and 404 for a missing one', async () => {
    const setting = await newSetting();
    const response = await ctx.admin.get(`${settings}/${setting.name.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(setting);
    expectError(await ctx.admin.get(`${settings}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('SharedConfigurableSettings_GetByResourceKey', () => {
  it('answers 200 with the setting of the resource key, and 404 for an unknown key', async () => {
    const setting = await newSetting();
    const response = await ctx.admin.get(`${settings}/resourcekey/${setting.resourceKey}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(setting);
    expectError(await ctx.admin.get(`${settings}/resourcekey/${unique('nokey')}`), 404, 'not_found');
  });
});

describe('SharedConfigurableSettings_Patch', () => {
  it('changes the named fields, localized contents included, and answers 200 with the setting', async () => {
    const setting = await newSetting({ value: 'a', localizedContents: [{ languageCode: 'nl', helpText: 'oud' }] });
    const response = await ctx.admin.patch(`${settings}/${setting.name}`, {
      body: [
        { op: 'replace', path: 'value', value: 'b' },
        { Op: 'Add', Path: 'localizedContents', Value: { languageCode: 'en', helpText: 'new' } },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...setting,
      value: 'b',
      localizedContents: [
        { languageCode: 'nl', helpText: 'oud', errorMessage: null },
        { languageCode: 'en', helpText: 'new', errorMessage: null },
      ],
    });
  });

  it('answers 400 with the specification message for a language other than nl or en, and changes nothing', async () => {
    const setting = await newSetting();
    const response = await ctx.admin.patch(`${settings}/${setting.name}`, {
      body: [{ op: 'add', path: 'localizedContents', value: { languageCode: 'xx' } }],
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toBe(languageMessage);
    expect((await ctx.admin.get(`${settings}/${setting.name}`)).body).toEqual(setting);
  });

  it('answers 400 for an unknown path or a wrong value type', async () => {
    const setting = await newSetting();
    const path = `${settings}/${setting.name}`;
    expectError(
      await ctx.admin.patch(path, { body: [{ op: 'replace', path: 'id', value: unknownGuid }] }),
      400,
      'invalid_request',
    );
    expectError(
      await ctx.admin.patch(path, { body: [{ op: 'replace', path: 'value', value: 7 }] }),
      400,
      'invalid_request',
    );
  });

  it('answers 404 for a missing setting and 409 when renaming onto another', async () => {
    expectError(
      await ctx.admin.patch(`${settings}/${unique('missing')}`, {
        body: [{ op: 'replace', path: 'value', value: 'x' }],
      }),
      404,
      'not_found',
    );
    const [first, second] = [await newSetting(), await newSetting()];
    expectError(
      await ctx.admin.patch(`${settings}/${second.name}`, {
        body: [{ op: 'replace', path: 'name', value: first.name }],
      }),
      409,
      'conflict',
    );
  });
});

describe('SharedConfigurableSettings_Delete', () => {
  it('deletes the setting, and answers 404 once it is gone', async () => {
    const setting = await newSetting();
    expect((await ctx.admin.delete(`${settings}/${setting.name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${settings}/${setting.name}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${settings}/${setting.name}`), 404, 'not_found');
  });
});
