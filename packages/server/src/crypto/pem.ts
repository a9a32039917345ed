/** PEM text of DER bytes under `label` (CERTIFICATE, PRIVATE KEY…): base64 in lines of 64 characters (RFC 7468). */
export function pemOf(label: string, der: Uint8Array | ArrayBuffer): string {
  const base64 = Buffer.from(der instanceof ArrayBuffer ? new Uint8Array(der) : der).toString('base64');
  return `-----BEGIN ${label}-----\n${(base64.match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;
}
