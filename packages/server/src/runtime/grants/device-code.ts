import { consumeDeviceCode, findDeviceCode, notePoll } from '../device/device-codes.js';
import { issueUserTokens } from '../issue-tokens.js';
import { AuthorizationPending, ExpiredToken, InvalidGrant, OAuthError, SlowDown } from '../oauth-errors.js';
import { parseScope } from '../scopes.js';
import { type Grant, requiredParam } from './grant.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** RFC 8628 §3.5: the person denied the request (400 at the token endpoint). */
class DeviceAccessDenied extends OAuthError {
  constructor() {
    super('access_denied', 400, 'the user denied the request');
  }
}

/**
 * RFC 8628 §3.4: the device polls with its device code. Pending: authorization_pending (slow_down when it polls
 * faster than the interval); denied: access_denied; expired: expired_token; approved: the tokens, once.
 */
export const deviceCodeGrant: Grant = async (ctx, client, form) => {
  const row = await findDeviceCode(ctx.db, requiredParam(form, 'device_code'));
  if (!row || row.clientId !== client.clientId) throw new InvalidGrant('unknown device code');
  if (row.status === 'consumed') throw new InvalidGrant('the device code was already used');
  if (row.expiresAt.getTime() <= Date.now()) throw new ExpiredToken();
  if (row.status === 'denied') throw new DeviceAccessDenied();
  if (row.status === 'pending') {
    if (await notePoll(ctx.db, row)) throw new SlowDown();
    throw new AuthorizationPending();
  }
  if (row.status !== 'approved' || row.userId === null || !(await consumeDeviceCode(ctx.db, row))) {
    throw new InvalidGrant('the device code was already used');
  }
  return issueUserTokens(ctx, {
    client,
    userId: row.userId,
    scopes: parseScope(row.scope),
    authTime: new Date(),
    amr: ['pwd'],
  });
};
