/**
 * Kubernetes label selectors as `labels.Parse` (k8s.io/apimachinery/pkg/labels/selector.go) reads and validates
 * them: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`, comma-separated; keys are
 * qualified names (`prefix/name`, name at most 63 characters, prefix a DNS subdomain of at most 253), values label
 * values (at most 63 characters).
 */

export class LabelSelectorError extends Error {}

type Labels = Readonly<Record<string, string>>;
type Requirement = (labels: Labels) => boolean;

const SPECIAL = new Set(['=', '!', '(', ')', ',', '<', '>']);
const NAME = /^(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$/;

type Token = { readonly kind: 'identifier' | 'symbol' | 'end'; readonly text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i += 1;
    } else if (SPECIAL.has(char)) {
      const two = text.slice(i, i + 2);
      const symbol = two === '==' || two === '!=' ? two : char;
      tokens.push({ kind: 'symbol', text: symbol });
      i += symbol.length;
    } else {
      let j = i;
      while (j < text.length && !/\s/.test(text[j]!) && !SPECIAL.has(text[j]!)) j += 1;
      tokens.push({ kind: 'identifier', text: text.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

export function parseLabelSelector(text: string): (labels: Labels) => boolean {
  const tokens = tokenize(text);
  let position = 0;
  const next = () => tokens[Math.min(position++, tokens.length - 1)]!;
  const peek = () => tokens[position]!;
  const requirements: Requirement[] = [];
  if (peek().kind === 'end') return () => true;
  for (;;) {
    requirements.push(requirement(next, peek));
    const after = next();
    if (after.kind === 'end') break;
    if (after.text !== ',') throw new LabelSelectorError(`found '${after.text}', expected: ',' or 'end of string'`);
    if (peek().kind !== 'identifier' && peek().text !== '!')
      throw new LabelSelectorError(`found '${peek().text}', expected: !, identifier, or 'end of string'`);
  }
  return (labels) => requirements.every((check) => check(labels));
}

function requirement(next: () => Token, peek: () => Token): Requirement {
  let token = next();
  if (token.text === '!') {
    token = next();
    if (token.kind !== 'identifier')
      throw new LabelSelectorError(`found '${token.text}', expected: identifier after '!'`);
    validateKey(token.text);
    const key = token.text;
    return (labels) => !Object.hasOwn(labels, key);
  }
  if (token.kind !== 'identifier')
    throw new LabelSelectorError(`found '${token.text}', expected: !, identifier, or 'end of string'`);
  const key = token.text;
  validateKey(key);
  const operator = peek();
  if (operator.kind === 'end' || operator.text === ',') return (labels) => Object.hasOwn(labels, key);
  next();
  if (operator.text === 'in' || operator.text === 'notin') {
    const values = valueSet(next);
    return operator.text === 'in'
      ? (labels) => Object.hasOwn(labels, key) && values.has(labels[key]!)
      : (labels) => !Object.hasOwn(labels, key) || !values.has(labels[key]!);
  }
  if (!['=', '==', '!=', '<', '>'].includes(operator.text)) {
    throw new LabelSelectorError(`found '${operator.text}', expected: in, notin, =, ==, !=, gt, lt`);
  }
  const value = peek().kind === 'identifier' ? next().text : '';
  if (operator.text === '<' || operator.text === '>') {
    if (!/^[+-]?\d+$/.test(value))
      throw new LabelSelectorError(
        `for 'Gt', 'Lt' operators, the value must be an integer, got ${JSON.stringify(value)}`,
      );
    const bound = BigInt(value);
    return (labels) =>
      /^[+-]?\d+$/.test(labels[key] ?? '') &&
      (operator.text === '>' ? BigInt(labels[key]!) > bound : BigInt(labels[key]!) < bound);
  }
  validateValue(value);
  return operator.text === '!='
    ? (labels) => labels[key] !== value
    : (labels) => Object.hasOwn(labels, key) && labels[key] === value;
}

function valueSet(next: () => Token): Set<string> {
  if (next().text !== '(') throw new LabelSelectorError(`expected '(' after in or notin`);
  const values = new Set<string>();
  for (;;) {
    let token = next();
    let value = '';
    if (token.kind === 'identifier') {
      value = token.text;
      token = next();
    }
    validateValue(value);
    values.add(value);
    if (token.text === ')') return values;
    if (token.text !== ',') throw new LabelSelectorError(`found '${token.text}', expected: ',' or ')'`);
  }
}

function validateKey(key: string): void {
  const parts = key.split('/');
  const problem = (why: string) => new LabelSelectorError(`key: Invalid value: ${JSON.stringify(key)}: ${why}`);
  if (parts.length > 2)
    throw problem(
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS " +
        "subdomain prefix and '/'",
    );
  const name = parts.at(-1)!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') throw problem('prefix part must be non-empty');
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))
      throw problem('prefix part must be a lowercase RFC 1123 subdomain of at most 253 characters');
  }
  if (name === '') throw problem('name part must be non-empty');
  if (name.length > 63) throw problem('name part must be no more than 63 characters');
  if (!NAME.test(name))
    throw problem(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
        'alphanumeric character',
    );
}

function validateValue(value: string): void {
  if (value === '') return;
  if (value.length > 63)
    throw new LabelSelectorError(
      `values[0]: Invalid value: ${JSON.stringify(value)}: must be no more than 63 characters`,
    );
  if (!NAME.test(value))
    throw new LabelSelectorError(
      `values[0]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist ` +
        `of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
}
