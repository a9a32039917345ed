import { ConnectionInput, type PatchBody, type PluginType } from '@idsvc/shared';
import { configurationFields, federationPluginTypes, parseConfiguration } from '../connections/config-schemas.js';
import type { MetadataSettings } from '../connections/metadata.js';
import { applyPatch, type PatchOp, parsePatch } from '../conventions/patch.js';
import type { DbOrTx } from '../db/client.js';
import { badRequest } from '../http/api-error.js';
import * as q from '../queries/connections.js';
import { keptReference, storeSigningCertificates } from './connection-input.js';

const unique = (values: readonly string[]) => [...new Set(values)];
const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * PUT with a metadataReference: only the configuration changes, from the metadata (over the stored configuration
 * and any configuration the input carries), together with what derives from it: the entity id, the signing
 * certificates (stored in the database store when absent and applied to the connection in place of the previous
 * signing certificates) and the reference itself. Every other field stays as it is.
 */
export async function metadataUpdate(
  tx: DbOrTx,
  before: q.ConnectionRow,
  input: ConnectionInput,
  settings: MetadataSettings,
): Promise<q.ConnectionRow> {
  const pluginType = before.pluginType as PluginType;
  const config = parseConfiguration(pluginType, {
    ...before.configuration,
    ...(input.configuration ?? {}),
    ...settings.configuration,
    signingCertificates: settings.signingCertificates,
  });
  const signing = await storeSigningCertificates(tx, stringsOf(config.signingCertificates));
  const previous = stringsOf(before.configuration.signingCertificates);
  const certificates = unique([...before.certificates.filter((t) => !previous.includes(t)), ...signing]);
  return q.updateConnection(tx, before.id, {
    configuration: { ...config, signingCertificates: signing },
    entityId: config.entityId as string,
    certificates,
    metadataReference: keptReference(input.metadataReference),
  });
}

/** Top-level fields a PATCH may name; configuration fields are named `configuration.<field>`. */
const patchable = [
  'enabled',
  'accessOrganizationName',
  'entityId',
  'configuration',
  'scopes',
  'claimSets',
  'appliedHomeRealmDiscoveryRules',
  'dependencyConnectionNames',
  'claimTransformations',
  'certificates',
] as const;

/**
 * The input a PATCH makes of a stored SAML 2.0 or WS-Federation connection (400 for other plugin types, for an
 * operation that does not apply, and for a result that is not a valid connection).
 */
export function patchedInput(
  before: q.ConnectionRow,
  body: PatchBody,
): { input: ConnectionInput; operations: PatchOp[] } {
  if (!federationPluginTypes.includes(before.pluginType)) {
    throw badRequest(
      `PATCH applies to SAML 2.0 and WS-Federation connections only; ${before.name} is a ${before.pluginType} connection`,
    );
  }
  const operations = parsePatch(body);
  const current = q.toConnection(before);
  const prefix = 'configuration.';
  const configKeys = configurationFields(before.pluginType as PluginType).map((f) => `${prefix}${f}`);
  const flat: Record<string, unknown> = Object.fromEntries(patchable.map((f) => [f, current[f]]));
  for (const key of configKeys) flat[key] = current.configuration[key.slice(prefix.length)] ?? null;
  const next = applyPatch(flat, operations, [...patchable, ...configKeys]);

  const patchedConfig = next.configuration;
  if (!patchedConfig || typeof patchedConfig !== 'object' || Array.isArray(patchedConfig)) {
    throw badRequest('configuration must be an object', [{ field: 'configuration' }]);
  }
  const configuration = { ...(patchedConfig as Record<string, unknown>) };
  for (const key of configKeys) {
    if (JSON.stringify(next[key]) === JSON.stringify(flat[key])) continue;
    const field = key.slice(prefix.length);
    if (next[key] === null) delete configuration[field];
    else configuration[field] = next[key];
  }
  const candidate = {
    ...Object.fromEntries(patchable.map((f) => [f, next[f]])),
    name: before.name,
    connectionType: before.connectionType,
    pluginType: before.pluginType,
    configuration,
  };
  const parsed = ConnectionInput.safeParse(candidate);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    throw badRequest(`the patched connection is invalid: ${details[0].field} ${details[0].message}`, details);
  }
  return { input: parsed.data, operations };
}
