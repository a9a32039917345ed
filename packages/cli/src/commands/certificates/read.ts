import { readFile } from 'node:fs/promises';
import { readStdin } from '../../body.js';
import { UsageError } from '../../errors.js';

export interface CertificateFile {
  /** The file, with `#n` for the n-th certificate of a PEM bundle. */
  source: string;
  /** Base64 of the DER encoding. */
  base64: string;
}

const pemBlock = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** A DER certificate starts with a SEQUENCE tag and a length byte. */
function looksLikeDer(bytes: Buffer): boolean {
  return bytes.length > 64 && bytes[0] === 0x30 && (bytes[1] === 0x82 || bytes[1] === 0x83 || bytes[1] === 0x81);
}

/** The certificates of one file: PEM (every block of a bundle), DER, or base64 of DER. */
export function certificatesIn(source: string, bytes: Buffer): CertificateFile[] {
  if (looksLikeDer(bytes)) return [{ source, base64: bytes.toString('base64') }];
  const text = bytes.toString('utf8');
  const blocks = [...text.matchAll(pemBlock)].map((m) => m[1].replace(/\s+/g, ''));
  if (blocks.length) {
    return blocks.map((base64, i) => ({ source: blocks.length > 1 ? `${source}#${i + 1}` : source, base64 }));
  }
  const compact = text.replace(/\s+/g, '');
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(compact) && looksLikeDer(Buffer.from(compact, 'base64'))) {
    return [{ source, base64: compact }];
  }
  throw new UsageError(`${source}: not a certificate in PEM, DER or base64`);
}

export async function readCertificateFiles(files: readonly string[]): Promise<CertificateFile[]> {
  const out: CertificateFile[] = [];
  for (const file of files) {
    let bytes: Buffer;
    if (file === '-') bytes = Buffer.from(await readStdin(), 'utf8');
    else {
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
    }
    out.push(...certificatesIn(file === '-' ? 'stdin' : file, bytes));
  }
  return out;
}

/** A thumbprint as the API writes it: hexadecimal upper case, without colons or spaces. */
export function normalizeThumbprint(value: string): string {
  return value.replace(/[\s:]/g, '').toUpperCase();
}
