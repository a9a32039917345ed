import { type AttrPath, COMPARE_OPERATORS, type CompareOperator, type FilterNode, type FilterValue } from './ast.js';
import { InvalidFilterError } from './errors.js';
import { type Token, tokenize } from './lexer.js';

/** Deepest nesting of parentheses, `not` and value paths accepted. */
export const MAX_FILTER_DEPTH = 32;

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const URN_PREFIX = /^urn:/i;

/**
 * Parses a SCIM 2.0 filter (RFC 7644 §3.4.2.2). Operators and `and` / `or` / `not` are case-insensitive;
 * attribute names are kept as written. Precedence: `not` binds tighter than `and`, `and` tighter than `or`.
 * @throws InvalidFilterError when the text is not a filter.
 */
export function parseFilter(text: string): FilterNode {
  if (text.trim() === '') throw new InvalidFilterError('filter is empty');
  return new Parser(tokenize(text)).parseAll();
}

function isOperator(word: string): word is CompareOperator {
  return (COMPARE_OPERATORS as readonly string[]).includes(word);
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'end of filter';
  if (token.kind === 'string') return `string ${token.text}`;
  return `'${token.text}'`;
}

function isWord(token: Token, word: string): boolean {
  return token.kind === 'word' && token.text.toLowerCase() === word;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parseAll(): FilterNode {
    const node = this.parseOr(0, false);
    const token = this.peek();
    if (token.kind !== 'end') {
      throw new InvalidFilterError(`unexpected ${describe(token)}, expected 'and', 'or' or end of filter`, token.pos);
    }
    return node;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private parseOr(depth: number, inValuePath: boolean): FilterNode {
    let left = this.parseAnd(depth, inValuePath);
    while (isWord(this.peek(), 'or')) {
      this.next();
      left = { kind: 'or', left, right: this.parseAnd(depth, inValuePath) };
    }
    return left;
  }

  private parseAnd(depth: number, inValuePath: boolean): FilterNode {
    let left = this.parseUnary(depth, inValuePath);
    while (isWord(this.peek(), 'and')) {
      this.next();
      left = { kind: 'and', left, right: this.parseUnary(depth, inValuePath) };
    }
    return left;
  }

  private parseUnary(depth: number, inValuePath: boolean): FilterNode {
    const token = this.peek();
    const following = this.peek(1);
    // `not` is logical unless it is used as an attribute name (`not pr`, `not eq "x"`).
    const followingWord = following.kind === 'word' ? following.text.toLowerCase() : '';
    if (isWord(token, 'not') && followingWord !== 'pr' && !isOperator(followingWord)) {
      this.next();
      return { kind: 'not', expr: this.parseUnary(this.deeper(depth, token), inValuePath) };
    }
    return this.parsePrimary(depth, inValuePath);
  }

  private deeper(depth: number, token: Token): number {
    if (depth + 1 > MAX_FILTER_DEPTH) throw new InvalidFilterError('filter is nested too deeply', token.pos);
    return depth + 1;
  }

  private parsePrimary(depth: number, inValuePath: boolean): FilterNode {
    const token = this.next();
    if (token.kind === '(') {
      const node = this.parseOr(this.deeper(depth, token), inValuePath);
      const close = this.next();
      if (close.kind !== ')') {
        throw new InvalidFilterError(
          `expected ')' to close the '(' at position ${token.pos}, found ${describe(close)}`,
          close.pos,
        );
      }
      return node;
    }
    if (token.kind !== 'word' || isWord(token, 'and') || isWord(token, 'or')) {
      throw new InvalidFilterError(`expected an attribute name, found ${describe(token)}`, token.pos);
    }
    const attr = toAttrPath(token);
    if (this.peek().kind === '[') return this.parseValuePath(attr, token, depth, inValuePath);

    const opToken = this.next();
    const op = opToken.kind === 'word' ? opToken.text.toLowerCase() : '';
    if (op === 'pr') return { kind: 'present', attr };
    if (isOperator(op)) return { kind: 'compare', attr, op, value: this.parseValue(opToken) };
    if (opToken.kind === 'word') throw new InvalidFilterError(`unknown operator '${opToken.text}'`, opToken.pos);
    throw new InvalidFilterError(`expected an operator after '${token.text}', found ${describe(opToken)}`, opToken.pos);
  }

  private parseValuePath(attr: AttrPath, token: Token, depth: number, inValuePath: boolean): FilterNode {
    const open = this.next();
    if (inValuePath) throw new InvalidFilterError('a value path cannot be nested in another value path', open.pos);
    if (attr.sub !== undefined) {
      throw new InvalidFilterError(`a value path needs a multi-valued attribute, not '${token.text}'`, open.pos);
    }
    const filter = this.parseOr(this.deeper(depth, open), true);
    const close = this.next();
    if (close.kind !== ']') {
      throw new InvalidFilterError(
        `expected ']' to close the '[' at position ${open.pos}, found ${describe(close)}`,
        close.pos,
      );
    }
    return { kind: 'valuePath', attr: attr.attr, filter };
  }

  private parseValue(opToken: Token): FilterValue {
    const token = this.next();
    if (token.kind === 'string' || token.kind === 'number') return token.value!;
    if (token.kind === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    throw new InvalidFilterError(
      `expected a value (a quoted string, a number, true, false or null) after '${opToken.text}', found ${describe(token)}`,
      token.pos,
    );
  }
}

/** `name`, `name.sub`, or either one behind a URN prefix (`urn:…:User:name.sub`). */
function toAttrPath(token: Token): AttrPath {
  const text = token.text;
  let prefix = '';
  let rest = text;
  if (URN_PREFIX.test(text)) {
    const cut = text.lastIndexOf(':');
    prefix = text.slice(0, cut + 1);
    rest = text.slice(cut + 1);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || !parts.every((part) => NAME.test(part))) {
    throw new InvalidFilterError(`invalid attribute name '${text}'`, token.pos);
  }
  const attr = prefix + parts[0];
  return parts.length === 2 ? { attr, sub: parts[1] } : { attr };
}
