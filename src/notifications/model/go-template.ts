/**
 * A Go text/template interpreter for the subset the body builder emits and the mistakes worth catching:
 * text, `{{ pipeline }}` with `|`, `if`/`else`/`end`, `range $i, $x := ...`, `{{-`/`-}}` trimming, field
 * chains (`.rollout.status.phase`, `$x.name`), variables, string/number/bool/nil literals, parenthesised
 * pipelines and the functions in `TEMPLATE_FUNCTIONS`.
 *
 * Semantics follow text/template with the engines' default options: a missing map key is "no value" (printed
 * `<no value>`, passed to a function as nil) and a field of a missing value is again no value; a field of a
 * present nil is an error (`nil pointer evaluating interface {}.phase`), as is `index` of nil.
 */
import { NotModelledError } from './not-modelled';
import { TEMPLATE_FUNCTIONS, TemplateExecError, type TemplateFunction } from './template-functions';
import {
  parseTemplate,
  TemplateParseError,
  type Command,
  type Node,
  type Operand,
  type Pipeline,
} from './go-template-parse';
import { formatGoValue, goTypeName, isGoMap, type GoMap, type GoValue } from './values';
import { OverBudgetError, TEMPLATE_BUDGET, type TemplateBudget } from './template-budget';

export { TemplateExecError } from './template-functions';
export { TemplateParseError };

/** A value during execution: `undefined` is Go's invalid reflect.Value ("no value", e.g. a missing map key). */
type Value = GoValue | undefined;

export class GoTemplate {
  private constructor(
    readonly name: string,
    private readonly nodes: readonly Node[],
  ) {}

  /**
   * Parses as the engine does: what it refuses throws `TemplateParseError`; what it accepts but this subset does
   * not execute throws `NotModelledError` when execution reaches it.
   */
  static parse(name: string, source: string): GoTemplate {
    return new GoTemplate(name, parseTemplate(name, source));
  }

  /**
   * Executes with `data` as dot; throws `TemplateExecError` where text/template returns an error, and
   * `OverBudgetError` where the execution goes past `budget` (which the engine does not have).
   */
  execute(data: GoMap, budget: TemplateBudget = TEMPLATE_BUDGET): string {
    const out: string[] = [];
    new Executor(this.name, data, budget).run(this.nodes, data, [{ $: data }], out);
    return out.join('');
  }
}

// ---------------------------------------------------------------- execution

type Scope = Record<string, Value>;

class Executor {
  private steps = 0;
  private outputChars = 0;

  constructor(
    private readonly name: string,
    private readonly root: GoMap,
    private readonly budget: TemplateBudget,
  ) {}

  run(nodes: readonly Node[], dot: Value, scopes: Scope[], out: string[]): void {
    for (const node of nodes) {
      this.step();
      switch (node.kind) {
        case 'text':
          this.write(out, node.text);
          break;
        case 'action':
          this.write(out, printValue(this.pipeline(node.pipeline, dot, scopes)));
          break;
        case 'if':
          this.run(isTrue(this.pipeline(node.pipeline, dot, scopes)) ? node.then : node.otherwise, dot, scopes, out);
          break;
        case 'range':
          this.range(node, dot, scopes, out);
          break;
        case 'unmodelled':
          throw new NotModelledError(`${node.what} in the template ${this.name}`);
      }
    }
  }

  private range(node: Extract<Node, { kind: 'range' }>, dot: Value, scopes: Scope[], out: string[]): void {
    const value = this.pipeline(node.pipeline, dot, scopes);
    let entries: [GoValue, GoValue][] = [];
    if (Array.isArray(value)) entries = value.map((item, i) => [BigInt(i), item]);
    else if (isGoMap(value))
      entries = Object.keys(value)
        .sort()
        .map((key) => [key, value[key]!]);
    else if (value !== undefined && value !== null) throw this.error(`range can't iterate over ${printValue(value)}`);
    if (entries.length === 0) {
      this.run(node.otherwise, dot, scopes, out);
      return;
    }
    const [first, second] = node.pipeline.declarations;
    for (const [key, item] of entries) {
      this.step();
      const scope: Scope = {};
      if (first !== undefined && second !== undefined) Object.assign(scope, { [first]: key, [second]: item });
      else if (first !== undefined) scope[first] = item;
      this.run(node.body, item, [...scopes, scope], out);
    }
  }

  private pipeline(pipeline: Pipeline, dot: Value, scopes: Scope[]): Value {
    let value: Value | typeof NO_FINAL = NO_FINAL;
    for (const command of pipeline.commands) value = this.command(command, dot, scopes, value);
    return value === NO_FINAL ? undefined : value;
  }

  private command(command: Command, dot: Value, scopes: Scope[], final: Value | typeof NO_FINAL): Value {
    const [head, ...rest] = command;
    if (head!.kind === 'function') {
      const args = rest.map((arg) => this.operand(arg, dot, scopes));
      if (final !== NO_FINAL) args.push(final);
      return this.call(head!.name, args);
    }
    if (rest.length > 0 || final !== NO_FINAL)
      throw this.error(`can't give argument to non-function ${describe(head!)}`);
    return this.operand(head!, dot, scopes);
  }

  private call(name: string, args: Value[]): Value {
    const fn: TemplateFunction | undefined = Object.hasOwn(TEMPLATE_FUNCTIONS, name)
      ? TEMPLATE_FUNCTIONS[name]
      : undefined;
    if (fn === undefined) throw new NotModelledError(`the template function ${name}`);
    try {
      // An invalid value passed to an interface{} parameter arrives as nil.
      return fn(args.map((arg) => arg ?? null));
    } catch (error) {
      if (error instanceof TemplateExecError) throw this.error(`error calling ${name}: ${error.message}`);
      throw error;
    }
  }

  private operand(operand: Operand, dot: Value, scopes: Scope[]): Value {
    switch (operand.kind) {
      case 'literal':
        return operand.value;
      case 'pipeline':
        return this.pipeline(operand.pipeline, dot, scopes);
      case 'function':
        return this.call(operand.name, []);
      case 'field': {
        let receiver: Value = operand.base === 'dot' ? dot : this.variable(operand.base, scopes);
        for (const field of operand.fields) receiver = this.field(receiver, field);
        return receiver;
      }
    }
  }

  private variable(name: string, scopes: Scope[]): Value {
    if (name === '$') return this.root;
    for (let i = scopes.length - 1; i >= 0; i -= 1) if (name in scopes[i]!) return scopes[i]![name];
    throw this.error(`undefined variable "${name}"`); // the parser refuses it first
  }

  private field(receiver: Value, field: string): Value {
    if (receiver === undefined) return undefined;
    if (receiver === null) throw this.error(`nil pointer evaluating interface {}.${field}`);
    if (isGoMap(receiver)) return Object.hasOwn(receiver, field) ? receiver[field] : undefined;
    throw this.error(`can't evaluate field ${field} in type ${goTypeName(receiver)}`);
  }

  private step(): void {
    this.steps += 1;
    if (this.steps > this.budget.steps) throw new OverBudgetError(this.name, this.budget.steps, 'steps');
  }

  private write(out: string[], text: string): void {
    this.outputChars += text.length;
    if (this.outputChars > this.budget.outputChars)
      throw new OverBudgetError(this.name, this.budget.outputChars, 'characters of output');
    out.push(text);
  }

  private error(message: string): TemplateExecError {
    return new TemplateExecError(`template: ${this.name}: ${message}`);
  }
}

const NO_FINAL = Symbol('no final value');

function describe(operand: Operand): string {
  return operand.kind === 'field'
    ? `${operand.base === 'dot' ? '' : operand.base}.${operand.fields.join('.')}`
    : operand.kind;
}

/** How `{{ x }}` prints a value: fmt's `%v`, and `<no value>` for a missing one. */
function printValue(value: Value): string {
  return value === undefined ? '<no value>' : formatGoValue(value);
}

/** text/template's truth: false, 0, nil, empty and missing are false. */
function isTrue(value: Value): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (isGoMap(value)) return Object.keys(value).length > 0;
  return true;
}
