import { InvalidFilterError } from './errors.js';

export type TokenKind = 'word' | 'string' | 'number' | '(' | ')' | '[' | ']' | 'end';

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for a string, including the quotes). */
  text: string;
  /** The decoded value of a string or number token. */
  value?: string | number;
  /** 1-based character position of the token's first character. */
  pos: number;
}

const WHITESPACE = /\s/;
const WORD = /[A-Za-z0-9_$:.-]+/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NAME_CHAR = /[A-Za-z0-9_$:.-]/;
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Splits a filter into tokens; the last token is always `end`. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']') {
      tokens.push({ kind: ch, text: ch, pos: i + 1 });
      i++;
    } else if (ch === '"') {
      const token = readString(text, i);
      tokens.push(token);
      i += token.text.length;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const token = readNumber(text, i);
      tokens.push(token);
      i += token.text.length;
    } else if (NAME_CHAR.test(ch)) {
      WORD.lastIndex = i;
      const word = WORD.exec(text)![0];
      tokens.push({ kind: 'word', text: word, pos: i + 1 });
      i += word.length;
    } else {
      throw new InvalidFilterError(`unexpected character '${ch}'`, i + 1);
    }
  }
  tokens.push({ kind: 'end', text: '', pos: text.length + 1 });
  return tokens;
}

function readNumber(text: string, start: number): Token {
  NUMBER.lastIndex = start;
  const match = NUMBER.exec(text);
  WORD.lastIndex = start;
  const whole = WORD.exec(text)?.[0] ?? text[start];
  if (!match || (start + match[0].length < text.length && NAME_CHAR.test(text[start + match[0].length]))) {
    throw new InvalidFilterError(`invalid number '${whole}'`, start + 1);
  }
  const value = Number(match[0]);
  if (!Number.isFinite(value)) throw new InvalidFilterError(`number '${match[0]}' is out of range`, start + 1);
  return { kind: 'number', text: match[0], value, pos: start + 1 };
}

function readString(text: string, start: number): Token {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      return { kind: 'string', text: text.slice(start, i + 1), value, pos: start + 1 };
    }
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const esc = text[i + 1];
    if (esc === undefined) break;
    if (esc === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) throw new InvalidFilterError(`invalid escape '\\u${hex}' in string`, i + 1);
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
    } else if (Object.hasOwn(SIMPLE_ESCAPES, esc)) {
      value += SIMPLE_ESCAPES[esc];
      i += 2;
    } else {
      throw new InvalidFilterError(`invalid escape '\\${esc}' in string`, i + 1);
    }
  }
  throw new InvalidFilterError('unterminated string', start + 1);
}
