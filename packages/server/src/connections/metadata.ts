import type { ConnectionType, PluginType } from '@idsvc/shared';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { badRequest } from '../http/api-error.js';

/** An endpoint of a SAML 2.0 role (single sign-on, single logout, assertion consumer). */
export interface MetadataEndpoint {
  binding: string;
  location: string;
  responseLocation?: string;
  index?: number;
}

/** A SAML 2.0 role descriptor (IDPSSODescriptor or SPSSODescriptor). */
export interface SamlRole {
  singleSignOnServices: MetadataEndpoint[];
  assertionConsumerServices: MetadataEndpoint[];
  singleLogoutServices: MetadataEndpoint[];
  nameIdFormats: string[];
  /** Base64 DER of the signing certificates (KeyDescriptor use="signing" or without use). */
  signingCertificates: string[];
}

/** A WS-Federation role descriptor (SecurityTokenServiceType or ApplicationServiceType). */
export interface WsFederationRole {
  /** Addresses of fed:PassiveRequestorEndpoint. */
  passiveRequestorEndpoints: string[];
  /** Address of fed:SingleSignOutNotificationEndpoint, when given. */
  singleLogoutUrl?: string;
  signingCertificates: string[];
}

/** One EntityDescriptor of a metadata document. */
export interface MetadataEntity {
  entityId: string;
  identityProvider?: SamlRole;
  serviceProvider?: SamlRole;
  securityTokenService?: WsFederationRole;
  applicationService?: WsFederationRole;
}

type Node = Record<string, unknown>;

const repeated = new Set([
  'EntityDescriptor',
  'IDPSSODescriptor',
  'SPSSODescriptor',
  'RoleDescriptor',
  'KeyDescriptor',
  'X509Data',
  'X509Certificate',
  'SingleSignOnService',
  'SingleLogoutService',
  'AssertionConsumerService',
  'NameIDFormat',
  'PassiveRequestorEndpoint',
  'SingleSignOutNotificationEndpoint',
  'EndpointReference',
  'Address',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  trimValues: true,
  isArray: (name) => repeated.has(name),
});

const nodes = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is Node => v !== null && typeof v === 'object',
  );

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (value && typeof value === 'object' && typeof (value as Node)['#text'] === 'string') {
    return ((value as Node)['#text'] as string).trim() || undefined;
  }
  return undefined;
}

const texts = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).map(text).filter((v): v is string => v !== undefined);

const attr = (node: Node, name: string): string | undefined => {
  const value = node[`@${name}`];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

function endpoints(value: unknown): MetadataEndpoint[] {
  return nodes(value).flatMap((node) => {
    const binding = attr(node, 'Binding');
    const location = attr(node, 'Location');
    if (!binding || !location) return [];
    const responseLocation = attr(node, 'ResponseLocation');
    const index = attr(node, 'index');
    return [
      {
        binding,
        location,
        ...(responseLocation ? { responseLocation } : {}),
        ...(index !== undefined && /^\d+$/.test(index) ? { index: Number(index) } : {}),
      },
    ];
  });
}

/** Base64 DER of the role's signing certificates, whitespace removed. */
function signingCertificates(role: Node): string[] {
  return nodes(role.KeyDescriptor)
    .filter((key) => (attr(key, 'use') ?? 'signing') === 'signing')
    .flatMap((key) => nodes(key.KeyInfo).flatMap((info) => nodes(info.X509Data)))
    .flatMap((data) => texts(data.X509Certificate))
    .map((cert) => cert.replace(/\s+/g, ''));
}

function samlRole(role: Node): SamlRole {
  return {
    singleSignOnServices: endpoints(role.SingleSignOnService),
    assertionConsumerServices: endpoints(role.AssertionConsumerService),
    singleLogoutServices: endpoints(role.SingleLogoutService),
    nameIdFormats: texts(role.NameIDFormat),
    signingCertificates: signingCertificates(role),
  };
}

/** Addresses of `<X><EndpointReference><Address>` elements. */
const addresses = (value: unknown): string[] =>
  nodes(value).flatMap((endpoint) => nodes(endpoint.EndpointReference).flatMap((ref) => texts(ref.Address)));

function wsFederationRole(role: Node): WsFederationRole {
  const singleLogoutUrl = addresses(role.SingleSignOutNotificationEndpoint)[0];
  return {
    passiveRequestorEndpoints: addresses(role.PassiveRequestorEndpoint),
    ...(singleLogoutUrl ? { singleLogoutUrl } : {}),
    signingCertificates: signingCertificates(role),
  };
}

function entity(descriptor: Node): MetadataEntity | undefined {
  const entityId = attr(descriptor, 'entityID');
  if (!entityId) return undefined;
  const roles = nodes(descriptor.RoleDescriptor);
  const ofType = (suffix: string) => roles.find((r) => (attr(r, 'type') ?? '').endsWith(suffix));
  const idp = nodes(descriptor.IDPSSODescriptor)[0];
  const sp = nodes(descriptor.SPSSODescriptor)[0];
  const sts = ofType('SecurityTokenServiceType');
  const app = ofType('ApplicationServiceType');
  return {
    entityId,
    ...(idp ? { identityProvider: samlRole(idp) } : {}),
    ...(sp ? { serviceProvider: samlRole(sp) } : {}),
    ...(sts ? { securityTokenService: wsFederationRole(sts) } : {}),
    ...(app ? { applicationService: wsFederationRole(app) } : {}),
  };
}

/**
 * Parses SAML 2.0 / WS-Federation metadata (an EntityDescriptor, or an EntitiesDescriptor of several). A document
 * that is not well-formed XML, holds a DOCTYPE, or describes no entity is a 400.
 */
export function parseMetadata(xml: string): MetadataEntity[] {
  if (/<!DOCTYPE/i.test(xml)) throw badRequest('the metadata must not hold a DOCTYPE declaration');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw badRequest(`the metadata is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  const doc = parser.parse(xml) as Node;
  const descriptors = [
    ...nodes(doc.EntityDescriptor),
    ...nodes(doc.EntitiesDescriptor).flatMap((group) => nodes(group.EntityDescriptor)),
  ];
  const entities = descriptors.map(entity).filter((e): e is MetadataEntity => e !== undefined);
  if (entities.length === 0) throw badRequest('the metadata holds no EntityDescriptor with an entityID');
  return entities;
}

/** What metadata gives a connection: configuration fields and the signing certificates (base64 DER). */
export interface MetadataSettings {
  configuration: Record<string, unknown>;
  signingCertificates: string[];
}

/**
 * The configuration fields a connection takes from metadata: a SAML 2.0 sign-on connection from the identity
 * provider role, a SAML 2.0 protocol connection from the service provider role, a WS-Federation sign-on
 * connection from the security token service role and a WS-Federation protocol connection from the application
 * service role. Of several entities, the first with that role. 400 when none has it.
 */
export function metadataSettings(
  entities: MetadataEntity[],
  pluginType: PluginType,
  connectionType: ConnectionType,
): MetadataSettings {
  const signOn = connectionType === 'Authentication';
  if (pluginType === 'Saml20') {
    const key = signOn ? 'identityProvider' : 'serviceProvider';
    const found = entities.find((e) => e[key]);
    const role = found?.[key];
    if (!found || !role) {
      throw badRequest(`the metadata describes no SAML 2.0 ${signOn ? 'IDPSSODescriptor' : 'SPSSODescriptor'}`);
    }
    const configuration: Record<string, unknown> = {
      entityId: found.entityId,
      singleLogoutServices: role.singleLogoutServices,
      ...(signOn
        ? { singleSignOnServices: role.singleSignOnServices }
        : { assertionConsumerServices: role.assertionConsumerServices }),
      ...(role.nameIdFormats[0] ? { nameIdFormat: role.nameIdFormats[0] } : {}),
    };
    return { configuration, signingCertificates: role.signingCertificates };
  }
  if (pluginType === 'WsFederation') {
    const key = signOn ? 'securityTokenService' : 'applicationService';
    const found = entities.find((e) => e[key]);
    const role = found?.[key];
    if (!found || !role) {
      const type = signOn ? 'SecurityTokenServiceType' : 'ApplicationServiceType';
      throw badRequest(`the metadata describes no WS-Federation RoleDescriptor of type ${type}`);
    }
    const address = role.passiveRequestorEndpoints[0];
    const configuration: Record<string, unknown> = {
      entityId: found.entityId,
      ...(address ? { [signOn ? 'singleSignOnUrl' : 'replyUrl']: address } : {}),
      ...(role.singleLogoutUrl ? { singleLogoutUrl: role.singleLogoutUrl } : {}),
    };
    return { configuration, signingCertificates: role.signingCertificates };
  }
  throw badRequest(`a metadataReference applies to Saml20 and WsFederation connections, not ${pluginType}`);
}
