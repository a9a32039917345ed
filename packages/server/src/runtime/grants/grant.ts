import type { AppContext } from '../../context.js';
import type { OAuthClient } from '../clients.js';
import { InvalidRequest } from '../oauth-errors.js';

/** What a grant hands back to the token endpoint to render. */
export interface TokenResult {
  accessToken: string;
  expiresIn: number;
  scopes: string[];
  refreshToken?: string;
  idToken?: string;
}

/** One grant type of the token endpoint: the client is already authenticated and allowed the grant. */
export type Grant = (ctx: AppContext, client: OAuthClient, form: URLSearchParams) => Promise<TokenResult>;

/** A form parameter that must be present and non-empty (InvalidRequest otherwise). */
export function requiredParam(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === '') throw new InvalidRequest(`${name} is required`);
  return value;
}
