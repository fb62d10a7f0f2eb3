/** Kubernetes label selectors (`labels.Parse`): `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. */

export class LabelSelectorError extends Error {}

type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

export function parseLabelSelector(text: string): (labels: Readonly<Record<string, string>>) => boolean {
  const requirements = splitTopLevel(text)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseRequirement);
  return (labels) => requirements.every((requirement) => requirement(labels));
}

function parseRequirement(part: string): Requirement {
  let match = /^!\s*([^\s=!(),]+)$/.exec(part);
  if (match) return (labels) => !Object.hasOwn(labels, match![1]!);
  match = /^([^\s=!(),]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(part);
  if (match) {
    const [, key, operator, value] = match as unknown as [string, string, string, string];
    return operator === '!=' ? (labels) => labels[key] !== value : (labels) => labels[key] === value;
  }
  match = /^([^\s=!(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
  if (match) {
    const [, key, operator, list] = match as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((value) => value.trim()));
    return operator === 'in'
      ? (labels) => Object.hasOwn(labels, key) && values.has(labels[key]!)
      : (labels) => !Object.hasOwn(labels, key) || !values.has(labels[key]!);
  }
  match = /^([^\s=!(),]+)$/.exec(part);
  if (match) return (labels) => Object.hasOwn(labels, match![1]!);
  throw new LabelSelectorError(`cannot parse label selector requirement ${JSON.stringify(part)}`);
}

/** Splits on commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')') depth -= 1;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
