import type { Role } from '@idsvc/shared';

/** Who is calling the admin API, as read from a verified access token. */
export interface Principal {
  /** `sub` of the token. */
  subject: string;
  /** The user behind the token (`urn:internal:userid`), absent for client-credentials tokens. */
  userId?: string;
  clientId: string;
  roles: Role[];
}

/** A short name for audit records. */
export function actorOf(principal: Principal | undefined): string {
  if (!principal) return 'system';
  return principal.userId ? `user:${principal.userId}` : `client:${principal.clientId}`;
}
