import { describe, expect, it } from 'vitest';
import { GoTemplate } from '../../src/notifications/model/go-template';
import { parseTemplate, TemplateParseError } from '../../src/notifications/model/go-template-parse';
import { NotModelledError } from '../../src/notifications/model/not-modelled';
import type { GoMap } from '../../src/notifications/model/values';

/** text/template's words for why it refuses `text`, or undefined when it parses. */
function refusal(text: string, lacking: readonly string[] = []): string | undefined {
  try {
    parseTemplate('t', text, new Set(lacking));
    return undefined;
  } catch (error) {
    if (!(error instanceof TemplateParseError)) throw error;
    return `${error.line}: ${error.problem}`;
  }
}

describe('the one Go template parser', () => {
  it('refuses what text/template refuses, at its line', () => {
    expect(refusal('{{ .a ')).toBe('1: unclosed action');
    expect(refusal('a\n{{ if .x }}b')).toBe('2: unexpected EOF: {{if}} has no {{end}}');
    expect(refusal('{{ end }}')).toBe('1: unexpected {{end}}');
    expect(refusal('{{ lowercase .x }}')).toBe('1: function "lowercase" not defined');
    expect(refusal('{{ break }}')).toBe('1: {{break}} outside {{range}}');
    expect(refusal('{{ "a }}')).toBe('1: unterminated quoted string');
    expect(refusal('{{ mustToJson . }}', ['mustToJson'])).toBe('1: function "mustToJson" not defined');
  });

  it('refuses a constant where a command must run, a field of a constant and a malformed constant (helper-23)', () => {
    // Each refused by the engine when it loads the template (judge:engine, template/message-*), passed before.
    expect(refusal('{{ 1 | 2 }}')).toBe('1: non executable command in pipeline stage 2');
    expect(refusal('{{ .a | lower | . }}')).toBe('1: non executable command in pipeline stage 3');
    expect(refusal('{{ lower (1 | "b") }}')).toBe('1: non executable command in pipeline stage 2');
    expect(refusal('{{ "a" | lower | (printf "%s") }}')).toBeUndefined();
    expect(refusal('{{ "a".b }}')).toBe('1: unexpected . after term "\\"a\\""');
    expect(refusal('{{ true.x }}')).toBe('1: unexpected . after term "true"');
    expect(refusal('{{ "a" .b }}')).toBeUndefined();
    expect(refusal("{{ 'ab' }}")).toBe("1: malformed character constant: 'ab'");
    expect(refusal("{{ '' }}")).toBe('1: invalid syntax');
    expect(refusal("{{ '\\x41' }} {{ 'é' }}")).toBeUndefined();
    expect(refusal('{{ 1e999 }}')).toBe('1: illegal number syntax: "1e999"');
    // A number may start with its point, as text/template reads it: this was refused ("bad character").
    expect(refusal('{{ .5 }} {{ -.5 }}')).toBeUndefined();
    // := ends a word, as in text/template's lexer: `$x:=1` declares $x (helper-24: "bad character").
    expect(refusal('{{ $x:=1 }}{{ $x }}{{ range $i, $e:=.list }}{{ $e }}{{ end }}')).toBeUndefined();
    expect(refusal('{{ $x : 1 }}')).toBe('1: bad character in ":"');
  });

  it('checks every name, as text/template does, not only the first of a command', () => {
    expect(refusal('{{ printf "%s" nosuchfunction }}')).toBe('1: function "nosuchfunction" not defined');
  });

  it('refuses a variable used where none is declared, and a second plain else', () => {
    expect(refusal('{{ $nosuch }}')).toBe('1: undefined variable "$nosuch"');
    expect(refusal('{{ if .x }}{{ $v := 1 }}{{ end }}{{ $v }}')).toBe('1: undefined variable "$v"');
    expect(refusal('{{ range $i, $c := .list }}{{ $i }}{{ $c.type }}{{ end }}{{ $ }}')).toBeUndefined();
    expect(refusal('{{ if .x }}a{{ else }}b{{ else }}c{{ end }}')).toBe('1: expected end; found {{else}}');
  });

  it('chains else if only in an if, as text/template does (judge:engine, case template/message-with-else-if)', () => {
    expect(refusal('{{ if .x }}a{{ else if .y }}b{{ else }}c{{ end }}')).toBeUndefined();
    expect(refusal('{{ with .x }}a{{ else if .y }}b{{ end }}')).toBe('1: unexpected <if> in input');
    expect(refusal('{{ range .x }}a{{ else .y }}b{{ end }}')).toBe('1: unexpected <.y> in else');
  });

  it('parses what the engine accepts and the model does not execute, which says so only when reached', () => {
    const text = '{{ if .x }}{{ with .y }}{{ . }}{{ end }}{{ else }}{{ "A" }}{{ end }}';
    expect(refusal(text)).toBeUndefined();
    const template = GoTemplate.parse('t', text);
    expect(template.execute({ x: false } as GoMap)).toBe('A');
    expect(() => template.execute({ x: true, y: 'v' } as GoMap)).toThrow(NotModelledError);
  });
});
