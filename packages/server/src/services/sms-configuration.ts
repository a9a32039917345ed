import {
  type SmsGateway,
  type SmsGatewayInput,
  type SmsProviderType,
  type SmsTemplate,
  type SmsTemplateInput,
  smsProviderTypes,
} from '@idsvc/shared';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/client.js';
import { smsGateways, smsTemplates } from '../db/schema/index.js';
import { badRequest } from '../http/api-error.js';
import { dataPathProblem } from '../messaging/data-path.js';
import type { SmsGatewaySettings } from '../messaging/sms.js';
import { type DocumentField, type DocumentRow, findDocument } from '../queries/documents.js';
import { clearOtherFlags, findFlagged, gatewayUsingTemplate } from '../queries/messaging.js';
import { type DocumentResource, documentService } from './documents.js';
import type { WriteContext } from './write-context.js';

/** An SMS gateway as stored: the password only sealed with the server's secret key. */
interface StoredGateway {
  userName: string | null;
  passwordSealed: string | null;
  providerType: SmsProviderType;
  isDefault: boolean;
  smsTemplateName: string | null;
  url: string | null;
  bodyTemplate: string | null;
  fileName: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function readGateway(data: Record<string, unknown>): StoredGateway {
  return {
    userName: text(data.userName),
    passwordSealed: text(data.passwordSealed),
    providerType: smsProviderTypes.find((t) => t === data.providerType) ?? 'Http',
    isDefault: data.isDefault === true,
    smsTemplateName: text(data.smsTemplateName),
    url: text(data.url),
    bodyTemplate: text(data.bodyTemplate),
    fileName: text(data.fileName),
  };
}

/** Why a gateway cannot send (a 400 message), or undefined. */
function gatewayProblem(g: Pick<StoredGateway, 'providerType' | 'url' | 'fileName'>): string | undefined {
  if (g.providerType === 'Http') {
    if (!g.url) return 'url is required when providerType is Http';
    if (!/^https?:$/.test(new URL(g.url).protocol)) return 'url must be an http or https address';
  }
  if (g.providerType === 'File' && !g.fileName) return 'fileName is required when providerType is File';
  const pathProblem = g.fileName ? dataPathProblem(g.fileName) : undefined;
  return pathProblem ? `fileName ${pathProblem}` : undefined;
}

/** An input over the current gateway: absent fields keep their values; a null or empty password removes it. */
function mergeGateway(input: SmsGatewayInput, current: StoredGateway | undefined, box: SecretBox): StoredGateway {
  const base = current ?? readGateway({});
  const pick = <K extends keyof SmsGatewayInput & keyof StoredGateway>(key: K): StoredGateway[K] =>
    (input[key] === undefined ? base[key] : input[key]) as StoredGateway[K];
  const merged: StoredGateway = {
    userName: text(pick('userName')),
    passwordSealed:
      input.password === undefined ? base.passwordSealed : input.password ? box.seal(input.password) : null,
    providerType: input.providerType,
    isDefault: pick('isDefault') ?? false,
    smsTemplateName: text(pick('smsTemplateName')),
    url: text(pick('url')),
    bodyTemplate: text(pick('bodyTemplate')),
    fileName: text(pick('fileName')),
  };
  const problem = gatewayProblem(merged);
  if (problem) throw badRequest(problem, [{ field: problem.split(' ')[0], message: problem }]);
  return merged;
}

function toSmsGateway(row: DocumentRow): SmsGateway {
  const { passwordSealed: _secret, ...shown } = readGateway(row.data);
  return { name: row.name, ...shown };
}

const gatewayFields: Record<string, DocumentField> = {
  name: { type: 'string' },
  userName: { type: 'string' },
  providerType: { type: 'string' },
  isDefault: { type: 'boolean' },
  smsTemplateName: { type: 'string' },
  url: { type: 'string' },
  fileName: { type: 'string' },
};

function gatewayResource(box: SecretBox): DocumentResource<SmsGateway, SmsGatewayInput> {
  return {
    table: smsGateways,
    label: 'SMS gateway',
    keyField: 'name',
    fields: gatewayFields,
    keyOf: (input) => input.name,
    toData: (input, current) => ({ ...mergeGateway(input, current ? readGateway(current) : undefined, box) }),
    toApi: toSmsGateway,
    async validate(tx, input) {
      if (input.smsTemplateName && !(await findDocument(tx, smsTemplates, input.smsTemplateName))) {
        const message = `SMS template ${input.smsTemplateName} does not exist`;
        throw badRequest(message, [{ field: 'smsTemplateName', message }]);
      }
      // One default: making this gateway the default clears the flag on the others, in the write's transaction.
      if (input.isDefault === true) await clearOtherFlags(tx, smsGateways, 'isDefault', input.name);
    },
  };
}

const toSmsTemplate = (row: DocumentRow): SmsTemplate => ({
  name: row.name,
  content: typeof row.data.content === 'string' ? row.data.content : '',
});

const templateResource: DocumentResource<SmsTemplate, SmsTemplateInput> = {
  table: smsTemplates,
  label: 'SMS template',
  keyField: 'name',
  fields: { name: { type: 'string' }, content: { type: 'string' } },
  keyOf: (input) => input.name,
  toData: (input) => ({ content: input.content }),
  toApi: toSmsTemplate,
  async inUse(tx, row) {
    const gateway = await gatewayUsingTemplate(tx, row.name);
    return gateway ? `SMS gateway ${gateway.name} uses the SMS template ${row.name}` : undefined;
  },
};

/** SMS gateways and templates; the default gateway and templates as delivery needs them. */
export function smsConfigurationService(db: Db, box: SecretBox) {
  const gateways = documentService(db, gatewayResource(box));
  const templates = documentService(db, templateResource);

  const open = (g: StoredGateway): SmsGatewaySettings => ({
    providerType: g.providerType,
    url: g.url,
    bodyTemplate: g.bodyTemplate,
    fileName: g.fileName,
    userName: g.userName,
    password: g.passwordSealed ? box.open(g.passwordSealed) : null,
  });

  return {
    listGateways: gateways.list,
    /** The first gateway, while none is the default, becomes the default. */
    async createGateway(input: SmsGatewayInput, by: WriteContext): Promise<SmsGateway> {
      const first = !(await findFlagged(db, smsGateways, 'isDefault'));
      return gateways.create(first && input.isDefault !== true ? { ...input, isDefault: true } : input, by);
    },
    updateGateway: gateways.update,
    deleteGateway: (name: string, by: WriteContext) => gateways.delete(name, by, { missingOk: false }),

    listTemplates: templates.list,
    createTemplate: templates.create,
    updateTemplate: templates.update,
    /** 404 for a missing template; 409 while a gateway names it. */
    deleteTemplate: (name: string, by: WriteContext) => templates.delete(name, by, { missingOk: false }),

    /** The default gateway, ready to send, with the name of its template; undefined when none is the default. */
    async defaultGateway(): Promise<{ settings: SmsGatewaySettings; smsTemplateName: string | null } | undefined> {
      const row = await findFlagged(db, smsGateways, 'isDefault');
      if (!row) return undefined;
      const stored = readGateway(row.data);
      return { settings: open(stored), smsTemplateName: stored.smsTemplateName };
    },

    async template(name: string): Promise<SmsTemplate | undefined> {
      const row = await templates.find(name);
      return row ? toSmsTemplate(row) : undefined;
    },

    /** A gateway given in a request (not saved), ready to send; 400 when it cannot send. */
    gatewaySettingsOf(input: SmsGatewayInput): SmsGatewaySettings {
      const merged = mergeGateway({ ...input, password: undefined }, undefined, box);
      return { ...open(merged), password: input.password ?? null };
    },
  };
}

export type SmsConfigurationService = ReturnType<typeof smsConfigurationService>;
