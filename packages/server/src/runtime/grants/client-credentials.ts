import { issueAccessToken } from '../access-token.js';
import { UnauthorizedClient } from '../oauth-errors.js';
import { grantScopes, OFFLINE_ACCESS } from '../scopes.js';
import type { Grant } from './grant.js';

/** RFC 6749 §4.4: a confidential client acting for itself, with the REST API role of its configuration. */
export const clientCredentialsGrant: Grant = async (ctx, client, form) => {
  if (client.configuration.publicClient) throw new UnauthorizedClient('a public client cannot use client_credentials');
  const scopes = grantScopes(client, form.get('scope')).filter((s) => s !== OFFLINE_ACCESS);
  const role = client.configuration.restApiRole;
  const roles = role === undefined ? [] : Array.isArray(role) ? role : [role];
  const access = await issueAccessToken(ctx, client, { subject: client.clientId, scopes, roles });
  return { ...access, scopes };
};
