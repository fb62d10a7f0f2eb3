package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// valueCase asks for the value of one expression on one object at a fixed clock, as the engine's oncePer would
// print it (fmt's %v), so that glidepath's model of expr can be compared with this release's.
type valueCase struct {
	Ref    string          `json:"ref"`
	Engine string          `json:"engine"`
	Vars   []string        `json:"vars"`
	Expr   string          `json:"expr"`
	Object json.RawMessage `json:"object"`
	// NowMillis is what time.Now() returns, in milliseconds since the epoch (UTC).
	NowMillis int64 `json:"nowMillis"`
}

type valueResult struct {
	Ref string `json:"ref"`
	// Value is %v of the value, or "error: " and the first line of the compile or run error.
	Value string `json:"value"`
}

func judgeValues(cases []valueCase) []valueResult {
	results := make([]valueResult, 0, len(cases))
	for _, c := range cases {
		results = append(results, valueResult{Ref: c.Ref, Value: valueOf(c)})
	}
	return results
}

func valueOf(c valueCase) string {
	object, err := unstructured(c.Object)
	if err != nil {
		return "error: the object does not decode: " + err.Error()
	}
	vars := engineVars(c.Engine, c.Vars, object, map[string]string{})
	if clock, ok := vars["time"].(map[string]any); ok {
		now := time.UnixMilli(c.NowMillis).UTC()
		fixed := map[string]any{}
		for name, value := range clock {
			fixed[name] = value
		}
		fixed["Now"] = func() time.Time { return now }
		vars["time"] = fixed
	}
	program, err := compile(c.Expr)
	if err != nil {
		return "error: " + firstLine(err)
	}
	value, err := run(program, vars)
	if err != nil {
		return "error: " + firstLine(err)
	}
	return fmt.Sprintf("%v", value)
}

// unstructured decodes JSON as the engines receive objects from the API server (runtime.DefaultUnstructuredConverter):
// integers as int64, other numbers as float64.
func unstructured(raw json.RawMessage) (map[string]any, error) {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var object map[string]any
	if err := decoder.Decode(&object); err != nil {
		return nil, err
	}
	return withGoNumbers(object).(map[string]any), nil
}

func withGoNumbers(node any) any {
	switch value := node.(type) {
	case json.Number:
		if i, err := value.Int64(); err == nil {
			return i
		}
		f, _ := value.Float64()
		return f
	case map[string]any:
		for key, item := range value {
			value[key] = withGoNumbers(item)
		}
	case []any:
		for i, item := range value {
			value[i] = withGoNumbers(item)
		}
	}
	return node
}
