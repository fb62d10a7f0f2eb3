// Command exprjudge compiles and runs every trigger expression, and renders every template, of rendered
// notifications ConfigMaps with the real expr and sprig libraries an engine release builds with (chosen at build
// time: see README.md). It reads a job (JSON) on stdin and writes one result per item (JSON) on stdout.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

type job struct {
	ConfigMaps []configMap              `json:"configMaps"`
	Objects    map[string][]namedObject `json:"objects"`
	Values     []valueCase              `json:"values"`
}

type configMap struct {
	Ref    string            `json:"ref"`
	Engine string            `json:"engine"`
	Vars   []string          `json:"vars"`
	Data   map[string]string `json:"data"`
	// OncePerAlways: the release runs oncePer even where when is false, and logs its errors there.
	OncePerAlways bool `json:"oncePerAlways"`
}

type namedObject struct {
	Name   string         `json:"name"`
	Object map[string]any `json:"object"`
}

// condition is notifications-engine's triggers.Condition.
type condition struct {
	OncePer     string   `json:"oncePer,omitempty"`
	When        string   `json:"when,omitempty"`
	Description string   `json:"description,omitempty"`
	Send        []string `json:"send,omitempty"`
}

type result struct {
	ConfigMap string   `json:"configMap"`
	Item      string   `json:"item"`
	OK        bool     `json:"ok"`
	Problems  []string `json:"problems,omitempty"`
	Notes     []string `json:"notes,omitempty"`
}

func main() {
	var in job
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintf(os.Stderr, "exprjudge: reading the job on stdin: %v\n", err)
		os.Exit(2)
	}
	var results []result
	for _, cm := range in.ConfigMaps {
		objects, ok := in.Objects[cm.Engine]
		if !ok || len(objects) == 0 {
			fmt.Fprintf(os.Stderr, "exprjudge: no objects for engine %q\n", cm.Engine)
			os.Exit(2)
		}
		results = append(results, judgeConfigMap(cm, objects)...)
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	answer := map[string]any{"linked": linkedVersions(), "results": results, "values": judgeValues(in.Values)}
	if err := out.Encode(answer); err != nil {
		fmt.Fprintf(os.Stderr, "exprjudge: %v\n", err)
		os.Exit(1)
	}
}

// linkedVersions reports the expr and sprig versions this binary was built with, so a caller can check them.
func linkedVersions() map[string]string {
	linked := map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == exprModule || dep.Path == "github.com/Masterminds/sprig/v3" {
				linked[dep.Path] = dep.Version
			}
		}
	}
	return linked
}

func judgeConfigMap(cm configMap, objects []namedObject) []result {
	keys := make([]string, 0, len(cm.Data))
	for key := range cm.Data {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	context := map[string]string{}
	if text, ok := cm.Data["context"]; ok {
		if err := yaml.Unmarshal([]byte(text), &context); err != nil {
			return []result{{ConfigMap: cm.Ref, Item: "context", Problems: []string{"does not parse: " + err.Error()}}}
		}
	}
	envs := make([]namedEnv, len(objects))
	for i, object := range objects {
		envs[i] = namedEnv{object.Name, engineVars(cm.Engine, cm.Vars, object.Object, context)}
	}
	var results []result
	for _, key := range keys {
		switch {
		case strings.HasPrefix(key, "trigger."):
			results = append(results, judgeTrigger(cm.Ref, key, cm.Data[key], envs, cm.OncePerAlways)...)
		case strings.HasPrefix(key, "template."):
			results = append(results, judgeTemplate(cm.Ref, key, cm.Data[key], envs))
		}
	}
	return results
}

type namedEnv struct {
	name string
	vars map[string]any
}

func judgeTrigger(ref, key, text string, envs []namedEnv, oncePerAlways bool) []result {
	var conditions []condition
	if err := yaml.Unmarshal([]byte(text), &conditions); err != nil {
		return []result{{ConfigMap: ref, Item: key, Problems: []string{"does not parse as a trigger list: " + err.Error()}}}
	}
	var results []result
	for i, c := range conditions {
		item := fmt.Sprintf("%s[%d]", key, i)
		when := result{ConfigMap: ref, Item: item + ".when", OK: true}
		whenText := c.When
		if whenText == "" {
			whenText = "false" // what the engine compiles for an empty condition
		}
		triggered := make([]bool, len(envs))
		if program, err := compile(whenText); err != nil {
			when.fail("does not compile: " + firstLine(err))
		} else {
			for j, env := range envs {
				value, err := run(program, env.vars)
				if err != nil {
					when.fail(fmt.Sprintf("on %s: %s", env.name, firstLine(err)))
					continue
				}
				b, isBool := value.(bool)
				if !isBool {
					when.fail(fmt.Sprintf("on %s: returns %T, not bool (the engine treats it as false)", env.name, value))
				}
				triggered[j] = b
			}
		}
		results = append(results, when)
		if c.OncePer == "" {
			continue
		}
		oncePer := result{ConfigMap: ref, Item: item + ".oncePer", OK: true}
		// Where `when` is false the engine sends nothing, so an oncePer error there only logs; but an oncePer that
		// no object reaches is judged on every object, or a `when` that never holds would hide it.
		strict := !anyTrue(triggered)
		if program, err := compile(c.OncePer); err != nil {
			oncePer.fail("does not compile: " + firstLine(err))
		} else {
			for j, env := range envs {
				if _, err := run(program, env.vars); err != nil {
					if strict {
						oncePer.fail(fmt.Sprintf("on %s (no object makes when true): %s", env.name, firstLine(err)))
					} else if triggered[j] {
						oncePer.fail(fmt.Sprintf("on %s (when is true): %s", env.name, firstLine(err)))
					} else if oncePerAlways {
						oncePer.Notes = append(oncePer.Notes, fmt.Sprintf("on %s (when is false, nothing is sent, but this release logs the error at every reconcile): %s", env.name, firstLine(err)))
					}
				}
			}
		}
		results = append(results, oncePer)
	}
	return results
}

// judgeTemplate renders every string of the template as the engine's templaters do (text/template with sprig's
// TxtFuncMap minus env and expandenv), and checks that a webhook body that looks like JSON is JSON.
func judgeTemplate(ref, key, text string, envs []namedEnv) result {
	res := result{ConfigMap: ref, Item: key, OK: true}
	var tree any
	if err := yaml.Unmarshal([]byte(text), &tree); err != nil {
		res.fail("does not parse: " + err.Error())
		return res
	}
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	walkStrings(tree, "", func(path, source string) {
		tmpl, err := template.New(key + path).Funcs(funcs).Parse(source)
		if err != nil {
			res.fail(fmt.Sprintf("%s does not parse: %s", path, firstLine(err)))
			return
		}
		for _, env := range envs {
			var out bytes.Buffer
			if err := tmpl.Execute(&out, env.vars); err != nil {
				res.fail(fmt.Sprintf("%s on %s: %s", path, env.name, firstLine(err)))
				continue
			}
			if isWebhookBody(path) && looksLikeJSON(out.String()) && !json.Valid(out.Bytes()) {
				res.fail(fmt.Sprintf("%s on %s: renders invalid JSON: %s", path, env.name, out.String()))
			}
		}
	})
	return res
}

func walkStrings(node any, path string, visit func(path, text string)) {
	switch value := node.(type) {
	case string:
		visit(path, value)
	case map[string]any:
		keys := make([]string, 0, len(value))
		for key := range value {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			walkStrings(value[key], path+"."+key, visit)
		}
	case []any:
		for i, item := range value {
			walkStrings(item, fmt.Sprintf("%s[%d]", path, i), visit)
		}
	}
}

func isWebhookBody(path string) bool {
	return strings.HasPrefix(path, ".webhook.") && strings.HasSuffix(path, ".body")
}

func looksLikeJSON(text string) bool {
	trimmed := strings.TrimSpace(text)
	return strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[")
}

func anyTrue(values []bool) bool {
	for _, value := range values {
		if value {
			return true
		}
	}
	return false
}

func (r *result) fail(problem string) {
	r.OK = false
	r.Problems = append(r.Problems, problem)
}

func firstLine(err error) string {
	text := err.Error()
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i]
	}
	return text
}
