/** A kind of `idsvc apply` document: how its objects are named, found, created, updated and deleted. */
export interface Kind {
  kind: string;
  /** Other spellings accepted in documents (compared case-insensitively). */
  aliases: string[];
  /** The field naming an object. */
  key: string;
  /** Collection path under /api/rest/v2: POST creates, PUT updates. */
  collection: string;
  /** Path of one object (GET, DELETE), when the API has one; else the collection's list is read. */
  item?: string;
  /** GET path listing the objects, for kinds without a GET of one object and for --prune. */
  list: string;
  /** Whether DELETE exists (else --prune leaves the kind alone). */
  deletable: boolean;
  /** Create body's operation, for local validation. */
  createOperation: string;
  /** Fields that are written but never read back (secrets): not compared, sent only when changing. */
  writeOnly: string[];
  /** Objects --prune never deletes (seeded ones the service needs). */
  keep: string[];
  /** Keys of objects of the same kind this one needs first (parents, dependencies). */
  needs?: (spec: Record<string, unknown>) => string[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

/** The kinds, in the order they are applied (each after the kinds its objects refer to). */
export const kinds: Kind[] = [
  {
    kind: 'Organization',
    aliases: ['organizations', 'org'],
    key: 'name',
    collection: '/organizations',
    item: '/organizations/{key}',
    list: '/organizations',
    deletable: true,
    createOperation: 'Organizations_PostOrganization',
    writeOnly: [],
    keep: ['Root'],
    needs: (spec) => strings(spec.parentName),
  },
  {
    kind: 'Group',
    aliases: ['groups'],
    key: 'name',
    collection: '/groups',
    item: '/groups/{key}',
    list: '/groups',
    deletable: true,
    createOperation: 'Groups_PostGroup',
    writeOnly: [],
    keep: [],
  },
  {
    kind: 'ClaimDefinition',
    aliases: ['claimdefinitions', 'claim-definition'],
    key: 'claimType',
    collection: '/claimdefinitions',
    item: '/claimdefinitions/{key}',
    list: '/claimdefinitions',
    deletable: true,
    createOperation: 'ClaimDefinitions_Post',
    writeOnly: [],
    keep: ['urn:identify:rest-api:role'],
  },
  {
    kind: 'ClaimSet',
    aliases: ['claimsets', 'claim-set'],
    key: 'name',
    collection: '/claimsets',
    item: '/claimsets/{key}',
    list: '/claimsets',
    deletable: true,
    createOperation: 'ClaimSets_PostClaimSet',
    writeOnly: [],
    keep: [],
  },
  {
    kind: 'Transformation',
    aliases: ['transformations', 'claimtransformation'],
    key: 'name',
    collection: '/transformations',
    item: '/transformations/{key}',
    list: '/transformations/.filter',
    deletable: true,
    createOperation: 'Transformations_PostClaimTransformation',
    writeOnly: [],
    keep: [],
  },
  {
    kind: 'EmailServer',
    aliases: ['emailservers', 'email-server'],
    key: 'name',
    collection: '/emailconfiguration/emailservers',
    list: '/emailconfiguration/emailservers',
    deletable: true,
    createOperation: 'EmailConfiguration_CreateEmailServerSetting',
    writeOnly: ['password'],
    keep: [],
  },
  {
    kind: 'EmailTemplate',
    aliases: ['emailtemplates', 'email-template'],
    key: 'name',
    collection: '/emailconfiguration/emailtemplates',
    list: '/emailconfiguration/emailtemplates',
    deletable: false,
    createOperation: 'EmailConfiguration_PostEmailTemplateSetting',
    writeOnly: [],
    keep: [],
  },
  {
    kind: 'SmsTemplate',
    aliases: ['smstemplates', 'sms-template'],
    key: 'name',
    collection: '/smsconfiguration/smstemplate',
    list: '/smsconfiguration/smstemplate',
    deletable: true,
    createOperation: 'SmsConfiguration_PostSmsTemplateConfiguration',
    writeOnly: [],
    keep: [],
  },
  {
    kind: 'SmsGateway',
    aliases: ['smsgateways', 'sms-gateway'],
    key: 'name',
    collection: '/smsconfiguration/smsgateway',
    list: '/smsconfiguration/smsgateway',
    deletable: true,
    createOperation: 'SmsConfiguration_CreateSmsGatewayConfiguration',
    writeOnly: ['password'],
    keep: [],
  },
  {
    kind: 'Connection',
    aliases: ['connections'],
    key: 'name',
    collection: '/connections',
    item: '/connections/{key}',
    list: '/connections',
    deletable: true,
    createOperation: 'Connections_PostConnection',
    writeOnly: ['configuration.clientSecret'],
    keep: ['UsernamePassword', 'idsvc-cli'],
    needs: (spec) => strings(spec.dependencyConnectionNames),
  },
];

export function kindNamed(name: string): Kind | undefined {
  const lower = name.toLowerCase();
  return kinds.find((k) => k.kind.toLowerCase() === lower || k.aliases.includes(lower));
}

/** The path of one object: the item path with its key URL-encoded. */
export function itemPath(kind: Kind, key: string): string | undefined {
  return kind.item?.replace('{key}', encodeURIComponent(key));
}
