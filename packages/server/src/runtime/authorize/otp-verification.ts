import type { AppContext } from '../../context.js';
import { type CodeOwner, consumeCode, countWrongAttempt, findCode } from '../../queries/one-time-codes.js';
import { macKey } from '../mac-key.js';
import { codeDigest, OTP_MAX_ATTEMPTS } from './otp-delivery.js';

/**
 * What became of a code entered: accepted (and used up); wrong (one attempt counted against the code); wrong too
 * often (`exhausted`, also when this attempt was the last); expired; or no code to check (`missing`: none was sent,
 * or it was used already).
 */
export type CodeCheck = 'accepted' | 'wrong' | 'exhausted' | 'expired' | 'missing';

/** Checks the code entered against the owner's code: a code is accepted once, before it expires. */
export async function checkCode(
  ctx: Pick<AppContext, 'db' | 'box'>,
  owner: CodeOwner,
  entered: string,
): Promise<CodeCheck> {
  const code = entered.replace(/\s+/g, '');
  if (/^\d{1,16}$/.test(code)) {
    const codeHash = codeDigest(await macKey(ctx), owner, code);
    if (await consumeCode(ctx.db, owner, codeHash, OTP_MAX_ATTEMPTS)) return 'accepted';
  }
  const current = await findCode(ctx.db, owner);
  if (!current) return 'missing';
  if (current.expired) return 'expired';
  if (current.attempts >= OTP_MAX_ATTEMPTS) return 'exhausted';
  const attempts = await countWrongAttempt(ctx.db, owner);
  if (attempts === undefined) return 'missing';
  return attempts >= OTP_MAX_ATTEMPTS ? 'exhausted' : 'wrong';
}
