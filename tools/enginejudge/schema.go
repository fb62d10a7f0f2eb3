package main

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/argoproj/notifications-engine/pkg/services"
	"github.com/argoproj/notifications-engine/pkg/triggers"
)

// goType is how encoding/json fills a Go type, which is all the engine checks when it unmarshals a service's
// options or a template (sigs.k8s.io/yaml turns the YAML into JSON first).
type goType struct {
	// string, bool, int, uint, float, any, list, map, struct, or custom (a type with its own UnmarshalJSON).
	Kind   string             `json:"kind"`
	Elem   *goType            `json:"elem,omitempty"`
	Fields map[string]*goType `json:"fields,omitempty"`
	Name   string             `json:"name,omitempty"`
	// Promoted: a field of an embedded struct. sigs.k8s.io/yaml does not look into those when it decides to write a
	// number or a boolean as a string, so encoding/json sees the JSON type as it is.
	Promoted bool `json:"promoted,omitempty"`
	// Go is the type as Go prints it (string, []string, services.EmailOptions), for error messages.
	Go string `json:"go"`
}

// optionTypes are the option structs services.NewService unmarshals each service type into, filled by the
// services_<version>.go of the engine version this binary is built with (judge.ts writes it from that version's
// pkg/services/services.go, and builds with its tag).
var optionTypes = map[string]reflect.Type{}

var (
	jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

func describeType(t reflect.Type, seen map[reflect.Type]bool) *goType {
	if t.Kind() == reflect.Pointer {
		return describeType(t.Elem(), seen)
	}
	described := describeKind(t, seen)
	described.Go = t.String()
	return described
}

func describeKind(t reflect.Type, seen map[reflect.Type]bool) *goType {
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return &goType{Kind: "custom", Name: t.PkgPath() + "." + t.Name()}
	}
	switch t.Kind() {
	case reflect.String:
		return &goType{Kind: "string"}
	case reflect.Bool:
		return &goType{Kind: "bool"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &goType{Kind: "int"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &goType{Kind: "uint"}
	case reflect.Float32, reflect.Float64:
		return &goType{Kind: "float"}
	case reflect.Interface:
		return &goType{Kind: "any"}
	case reflect.Slice, reflect.Array:
		return &goType{Kind: "list", Elem: describeType(t.Elem(), seen)}
	case reflect.Map:
		return &goType{Kind: "map", Elem: describeType(t.Elem(), seen)}
	case reflect.Struct:
		if seen[t] {
			return &goType{Kind: "any", Name: "recursive " + t.Name()}
		}
		seen[t] = true
		defer delete(seen, t)
		fields := map[string]*goType{}
		addFields(t, fields, seen)
		return &goType{Kind: "struct", Fields: fields}
	}
	return &goType{Kind: "custom", Name: t.String()}
}

// addFields adds the fields encoding/json fills: exported, not `json:"-"`, embedded structs promoted.
func addFields(t reflect.Type, fields map[string]*goType, seen map[reflect.Type]bool) {
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		tag := field.Tag.Get("json")
		name := strings.Split(tag, ",")[0]
		if tag == "-" {
			continue
		}
		if field.Anonymous && name == "" {
			embedded := field.Type
			if embedded.Kind() == reflect.Pointer {
				embedded = embedded.Elem()
			}
			if embedded.Kind() == reflect.Struct {
				promoted := map[string]*goType{}
				addFields(embedded, promoted, seen)
				for name, t := range promoted {
					if _, taken := fields[name]; !taken {
						copied := *t
						copied.Promoted = true
						fields[name] = &copied
					}
				}
				continue
			}
		}
		if !field.IsExported() {
			continue
		}
		if name == "" {
			name = field.Name
		}
		if _, taken := fields[name]; !taken {
			fields[name] = describeType(field.Type, seen)
		}
	}
}

// engineSchema: the option type of every service type, the template (services.Notification), which string fields
// of a template the engine parses as Go templates at load (found by loading a template with "{{" there), and which
// of `functions` its templates lack (found by loading a template that names each one).
func engineSchema(functions []string) map[string]any {
	servicesSchema := map[string]*goType{}
	for name, t := range optionTypes {
		servicesSchema[name] = describeType(t, map[reflect.Type]bool{})
	}
	notification := describeType(reflect.TypeOf(services.Notification{}), map[reflect.Type]bool{})
	var templated []string
	for _, path := range stringLeaves(notification, nil) {
		value := valueAt(notification, path, "{{")
		text, err := json.Marshal(value)
		if err != nil {
			panic(err)
		}
		if load(judgeCase{Ref: "probe", Engine: "argo-rollouts", Data: map[string]string{"template.probe": string(text)}}, "") != nil {
			templated = append(templated, strings.Join(path, "."))
		}
	}
	sort.Strings(templated)
	lacking := []string{}
	for _, name := range functions {
		text, _ := json.Marshal(map[string]string{"message": "{{ if false }}{{ " + name + " }}{{ end }}"})
		err := load(judgeCase{Ref: "probe", Engine: "argo-rollouts", Data: map[string]string{"template.probe": string(text)}}, "")
		if err != nil && strings.Contains(err.Error(), `function "`+name+`" not defined`) {
			lacking = append(lacking, name)
		}
	}
	sort.Strings(lacking)
	condition := describeType(reflect.TypeOf(triggers.Condition{}), map[reflect.Type]bool{})
	return map[string]any{"services": servicesSchema, "notification": notification, "condition": condition, "templated": templated, "lackingFunctions": lacking}
}

// stringLeaves: the paths of every string in a template; "*" stands for a map key or a list index.
func stringLeaves(t *goType, path []string) [][]string {
	switch t.Kind {
	case "string":
		return [][]string{append([]string{}, path...)}
	case "list", "map":
		return stringLeaves(t.Elem, append(path, "*"))
	case "struct":
		var leaves [][]string
		names := make([]string, 0, len(t.Fields))
		for name := range t.Fields {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			leaves = append(leaves, stringLeaves(t.Fields[name], append(path, name))...)
		}
		return leaves
	}
	return nil
}

// valueAt builds a JSON value of type t that holds leaf at path and nothing else.
func valueAt(t *goType, path []string, leaf string) any {
	if len(path) == 0 {
		return leaf
	}
	switch t.Kind {
	case "list":
		return []any{valueAt(t.Elem, path[1:], leaf)}
	case "map":
		return map[string]any{"probe": valueAt(t.Elem, path[1:], leaf)}
	case "struct":
		return map[string]any{path[0]: valueAt(t.Fields[path[0]], path[1:], leaf)}
	}
	return leaf
}
