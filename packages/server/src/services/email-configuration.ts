import {
  type DeliveryMethod,
  deliveryMethods,
  type EmailServer,
  type EmailServerInput,
  type EmailTemplate,
  type EmailTemplateInput,
} from '@idsvc/shared';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/client.js';
import { emailServers, emailTemplates } from '../db/schema/index.js';
import { badRequest } from '../http/api-error.js';
import { dataPathProblem } from '../messaging/data-path.js';
import type { MailServer } from '../messaging/mailer.js';
import type { DocumentField, DocumentRow } from '../queries/documents.js';
import { clearOtherFlags, findFlagged } from '../queries/messaging.js';
import { type DocumentResource, documentService } from './documents.js';
import type { WriteContext } from './write-context.js';

/** An e-mail server setting as stored: the password only sealed with the server's secret key. */
interface StoredServer {
  host: string | null;
  port: number;
  default: boolean;
  enableSsl: boolean;
  useDefaultCredentials: boolean;
  userName: string | null;
  passwordSealed: string | null;
  deliveryMethod: DeliveryMethod;
  pickupDirectoryLocation: string | null;
  fromAddress: string | null;
}

const DEFAULT_SMTP_PORT = 25;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const bool = (v: unknown): boolean => v === true;

function readServer(data: Record<string, unknown>): StoredServer {
  const method = deliveryMethods.find((m) => m === data.deliveryMethod) ?? 'Network';
  return {
    host: text(data.host),
    port: typeof data.port === 'number' ? data.port : DEFAULT_SMTP_PORT,
    default: bool(data.default),
    enableSsl: bool(data.enableSsl),
    useDefaultCredentials: bool(data.useDefaultCredentials),
    userName: text(data.userName),
    passwordSealed: text(data.passwordSealed),
    deliveryMethod: method,
    pickupDirectoryLocation: text(data.pickupDirectoryLocation),
    fromAddress: text(data.fromAddress),
  };
}

/** Why a setting cannot deliver (a 400 message), or undefined. */
function serverProblem(s: Pick<StoredServer, 'host' | 'deliveryMethod' | 'pickupDirectoryLocation'>) {
  if (s.deliveryMethod === 'Network' && !s.host) return 'host is required when deliveryMethod is Network';
  if (s.deliveryMethod === 'SpecifiedPickupDirectory' && !s.pickupDirectoryLocation) {
    return 'pickupDirectoryLocation is required when deliveryMethod is SpecifiedPickupDirectory';
  }
  const pathProblem = s.pickupDirectoryLocation ? dataPathProblem(s.pickupDirectoryLocation) : undefined;
  return pathProblem ? `pickupDirectoryLocation ${pathProblem}` : undefined;
}

/** An input over the current setting: absent fields keep their values; a null or empty password removes it. */
function mergeServer(input: EmailServerInput, current: StoredServer | undefined, box: SecretBox): StoredServer {
  const base = current ?? readServer({});
  const pick = <K extends keyof EmailServerInput & keyof StoredServer>(key: K): StoredServer[K] =>
    (input[key] === undefined ? base[key] : input[key]) as StoredServer[K];
  const merged: StoredServer = {
    host: text(pick('host')),
    port: pick('port') ?? DEFAULT_SMTP_PORT,
    default: pick('default') ?? false,
    enableSsl: pick('enableSsl') ?? false,
    useDefaultCredentials: pick('useDefaultCredentials') ?? false,
    userName: text(pick('userName')),
    passwordSealed:
      input.password === undefined ? base.passwordSealed : input.password ? box.seal(input.password) : null,
    deliveryMethod: pick('deliveryMethod') ?? 'Network',
    pickupDirectoryLocation: text(pick('pickupDirectoryLocation')),
    fromAddress: text(pick('fromAddress')),
  };
  const problem = serverProblem(merged);
  if (problem) throw badRequest(problem, [{ field: problem.split(' ')[0], message: problem }]);
  return merged;
}

function toEmailServer(row: DocumentRow): EmailServer {
  const { passwordSealed: _secret, ...shown } = readServer(row.data);
  return { name: row.name, ...shown };
}

const serverFields: Record<string, DocumentField> = {
  name: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'number' },
  default: { type: 'boolean' },
  enableSsl: { type: 'boolean' },
  useDefaultCredentials: { type: 'boolean' },
  userName: { type: 'string' },
  deliveryMethod: { type: 'string' },
  pickupDirectoryLocation: { type: 'string' },
  fromAddress: { type: 'string' },
};

function serverResource(box: SecretBox): DocumentResource<EmailServer, EmailServerInput> {
  return {
    table: emailServers,
    label: 'e-mail server',
    keyField: 'name',
    fields: serverFields,
    keyOf: (input) => input.name,
    toData: (input, current) => ({ ...mergeServer(input, current ? readServer(current) : undefined, box) }),
    toApi: toEmailServer,
    // One default: making this server the default clears the flag on the others, in the write's transaction.
    async validate(tx, input) {
      if (input.default === true) await clearOtherFlags(tx, emailServers, 'default', input.name);
    },
  };
}

function toEmailTemplate(row: DocumentRow): EmailTemplate {
  const d = row.data;
  return {
    name: row.name,
    resourceKey: text(d.resourceKey),
    subject: typeof d.subject === 'string' ? d.subject : '',
    body: typeof d.body === 'string' ? d.body : '',
    isHtml: bool(d.isHtml),
  };
}

const templateResource: DocumentResource<EmailTemplate, EmailTemplateInput> = {
  table: emailTemplates,
  label: 'e-mail template',
  keyField: 'name',
  fields: { name: { type: 'string' }, resourceKey: { type: 'string' }, subject: { type: 'string' } },
  keyOf: (input) => input.name,
  toData: (input, current) => ({
    resourceKey: input.resourceKey === undefined ? text(current?.resourceKey) : input.resourceKey,
    subject: input.subject,
    body: input.body,
    isHtml: input.isHtml ?? bool(current?.isHtml),
  }),
  toApi: toEmailTemplate,
};

/** E-mail server settings and templates; the default server and templates as delivery needs them. */
export function emailConfigurationService(db: Db, box: SecretBox) {
  const servers = documentService(db, serverResource(box));
  const templates = documentService(db, templateResource);

  const open = (s: StoredServer): MailServer => {
    const { passwordSealed, default: _default, ...rest } = s;
    return { ...rest, password: passwordSealed ? box.open(passwordSealed) : null };
  };

  return {
    listServers: servers.list,
    /** The first server, while none is the default, becomes the default. */
    async createServer(input: EmailServerInput, by: WriteContext): Promise<EmailServer> {
      const first = !(await findFlagged(db, emailServers, 'default'));
      return servers.create(first && input.default !== true ? { ...input, default: true } : input, by);
    },
    updateServer: servers.update,
    deleteServer: (name: string, by: WriteContext) => servers.delete(name, by, { missingOk: false }),

    listTemplates: templates.list,
    createTemplate: templates.create,
    updateTemplate: templates.update,

    /** The default server, ready to deliver, or undefined when none is the default. */
    async defaultServer(): Promise<MailServer | undefined> {
      const row = await findFlagged(db, emailServers, 'default');
      return row ? open(readServer(row.data)) : undefined;
    },

    async template(name: string): Promise<EmailTemplate | undefined> {
      const row = await templates.find(name);
      return row ? toEmailTemplate(row) : undefined;
    },

    /** A server given in a request (not saved), ready to deliver; 400 when it cannot deliver. */
    mailServerOf(input: EmailServerInput): MailServer {
      const merged = mergeServer({ ...input, password: undefined }, undefined, box);
      return { ...open(merged), password: input.password ?? null };
    },
  };
}

export type EmailConfigurationService = ReturnType<typeof emailConfigurationService>;
