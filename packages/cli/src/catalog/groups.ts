/** Descriptions of the command groups, and the columns their tables show. */
export const groupInfo: Record<string, { description: string; columns?: string[] }> = {
  users: {
    description: 'users: list, create, import, export, lock and unlock',
    columns: ['userName', 'email', 'displayName', 'organization', 'groups', 'active', 'locked', 'id'],
  },
  lockedusers: {
    description: 'users locked out by failed sign-ins',
    columns: ['userName', 'email', 'organization', 'id'],
  },
  certificates: {
    description: 'certificates in the database and certificate stores',
    columns: ['thumbprint', 'subject', 'validTo', 'storeName', 'isInUse'],
  },
  claimdefinitions: {
    description: 'claim definitions (the claim types users and tokens can hold)',
    columns: ['claimType', 'kind', 'variableName', 'countSpecification', 'friendlyName', 'id'],
  },
  claimsets: { description: 'claim sets', columns: ['name', 'description', 'claimTypes', 'id'] },
  connections: {
    description: 'authentication, protocol and second-factor connections',
    columns: ['name', 'connectionType', 'pluginType', 'enabled', 'accessOrganizationName', 'id'],
  },
  groups: { description: 'groups', columns: ['name', 'description', 'accessOrganizationName'] },
  organizations: {
    description: 'organizations',
    columns: ['name', 'displayName', 'parentName', 'accessOrganizationName'],
  },
  systemsetup: { description: 'system setup and license' },
  transformations: { description: 'claim transformations', columns: ['name', 'type', 'accessOrganizationName'] },
  attributeservices: { description: 'attribute services' },
  messagequeues: { description: 'message queues' },
  settings: { description: 'shared configurable settings' },
  customcontents: { description: 'custom contents' },
  selfservice: { description: 'user self-service actions (password reset, offboarding)' },
  communication: { description: 'send e-mails and text messages' },
  emailservers: { description: 'e-mail server settings', columns: ['name', 'host', 'port', 'default', 'fromAddress'] },
  emailtemplates: { description: 'e-mail templates', columns: ['name', 'subject', 'resourceKey', 'isHtml'] },
  smsgateways: { description: 'SMS gateways', columns: ['name', 'providerType', 'isDefault', 'smsTemplateName'] },
  smstemplates: { description: 'SMS templates', columns: ['name', 'content'] },
  applications: { description: 'applications' },
  acmc: { description: 'authentication context method classes' },
  fieldconfiguration: { description: 'field validation rules (the password rule among them)' },
  correlationerrors: { description: 'recorded errors, by correlation id (the requestId of an error answer)' },
};
