import { UpstreamError } from './provider.js';
import { decryptToken, isEncryptedToken } from './wsfed-decrypt.js';
import type { WsFedRelyingParty, WsFedTokenService } from './wsfed-provider.js';
import { assertionCount, parseWresult, requestedToken, verifiedIdentity, type WsFedIdentity } from './wsfed-token.js';
import { parseUntrustedXml } from './wsfed-xml.js';

const invalid = (description: string) => new UpstreamError('invalid_response', description);

/**
 * Verifies the `wresult` of a WS-Federation sign-in response (wa=wsignin1.0), its token in the clear or encrypted for
 * this service (a SAML 2.0 EncryptedAssertion, or an EncryptedData standing for a SAML 1.1 or 2.0 assertion, as AD FS
 * sends to a relying party with an encryption certificate). An encrypted token is decrypted with this service's
 * private key (`decryptionKey`, asked for only then) and its content parsed as untrusted XML (no DTD): it must be one
 * assertion and nothing else, and is verified exactly as one in the clear, its own signature required. The response
 * around an encrypted token holds no assertion. Throws UpstreamError `invalid_response`.
 */
export async function verifyWsFedResult(
  sts: Pick<WsFedTokenService, 'entityId' | 'certificates'>,
  rp: WsFedRelyingParty,
  wresult: string,
  decryptionKey: () => Promise<string>,
  now = Date.now(),
): Promise<WsFedIdentity> {
  const doc = parseWresult(wresult);
  const token = requestedToken(doc);
  if (!isEncryptedToken(token)) return verifiedIdentity(sts, rp, wresult, token, now);
  // Against wrapping: an assertion in the clear beside the encrypted one is never what was meant.
  if (assertionCount(doc) > 0) throw invalid('wresult holds an assertion beside the encrypted token');
  const xml = await decryptToken(token, await decryptionKey());
  let decrypted: Document;
  try {
    decrypted = parseUntrustedXml(xml);
  } catch (error) {
    throw invalid(`the decrypted token is refused: ${(error as Error).message}`);
  }
  const count = assertionCount(decrypted);
  if (count !== 1) throw invalid(`the decrypted token holds ${count} assertions, not one`);
  return verifiedIdentity(sts, rp, xml, decrypted.documentElement, now);
}
