// Command helmjudge renders an argo-helm chart with real Helm (helm.sh/helm/v3 v3.18.4, the Helm that Argo CD
// 3.2.12 runs) and reads the notifications ConfigMap it renders as the API server gets it: the manifest through
// sigs.k8s.io/yaml (YAML 1.1), every data value a string. Given glidepath's own render of the same ConfigMap, it
// compares the two, each data value as the engine reads it (a value that is YAML, as YAML 1.1).
//
// In, one JSON object a line:
//
//	{"chart": "/path/to/argo-rollouts-2.41.0", "release": "argo-rollouts", "namespace": "argo-rollouts",
//	 "values": ["<values file>", ...], "configMap": "argo-rollouts-notification-configmap",
//	 "expected": "<glidepath's manifest file holding that ConfigMap>", "model": {"<key>": "<value>", ...}}
//
// Out, one JSON object a line:
//
//	{"rendered": true, "namespace": "argo-rollouts", "keys": ["service.webhook.x", ...], "invalid": "...",
//	 "differences": ["data.subscriptions: ..."], "modelDifferences": [...], "error": "..."}
//
// "rendered" says whether the chart renders a ConfigMap of that name; "invalid" that it does but the API server
// would refuse it (a data value that is not a string); "differences" lists where it differs from "expected", and
// "modelDifferences" where it differs from "model" (the project's model of the chart's template).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

type request struct {
	Chart     string   `json:"chart"`
	Release   string   `json:"release"`
	Namespace string   `json:"namespace"`
	Values    []string `json:"values"`
	ConfigMap string   `json:"configMap"`
	Expected  *string  `json:"expected"`
	// Model: the data src/notifications/model/helm-charts.ts says the chart renders, compared the same way.
	Model map[string]string `json:"model"`
}

type verdict struct {
	Rendered    bool     `json:"rendered"`
	Namespace   string   `json:"namespace,omitempty"`
	Keys        []string `json:"keys,omitempty"`
	Invalid     string   `json:"invalid,omitempty"`
	Differences []string `json:"differences,omitempty"`
	// ModelDifferences: where the chart's data differs from the request's "model".
	ModelDifferences []string `json:"modelDifferences,omitempty"`
	Error            string   `json:"error,omitempty"`
}

// object is what the API server reads of a manifest: generic JSON, as Argo CD sends it.
type object struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Data map[string]any `json:"data"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	decoder := json.NewDecoder(in)
	for {
		var req request
		if err := decoder.Decode(&req); err != nil {
			if err.Error() == "EOF" {
				return
			}
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if err := out.Encode(judge(req)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}

func judge(req request) verdict {
	manifests, err := render(req)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	chartMap, found, err := findConfigMap(manifests, req.ConfigMap)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	if !found {
		return verdict{}
	}
	answer := verdict{Rendered: true, Namespace: chartMap.Metadata.Namespace}
	for key := range chartMap.Data {
		answer.Keys = append(answer.Keys, key)
	}
	sort.Strings(answer.Keys)
	chartData, invalid := stringData(chartMap)
	if invalid != "" {
		answer.Invalid = invalid
		return answer
	}
	if req.Model != nil {
		answer.ModelDifferences = compareData(chartData, req.Model)
	}
	if req.Expected == nil {
		return answer
	}
	ours, found, err := findConfigMap([]string{*req.Expected}, req.ConfigMap)
	if err != nil || !found {
		return verdict{Error: fmt.Sprintf("glidepath's file holds no readable ConfigMap %s: %v", req.ConfigMap, err)}
	}
	ourData, invalid := stringData(ours)
	if invalid != "" {
		return verdict{Error: "glidepath's ConfigMap: " + invalid}
	}
	if ours.Metadata.Namespace != chartMap.Metadata.Namespace {
		answer.Differences = append(answer.Differences, fmt.Sprintf("metadata.namespace: chart %q, glidepath %q", chartMap.Metadata.Namespace, ours.Metadata.Namespace))
	}
	answer.Differences = append(answer.Differences, compareData(chartData, ourData)...)
	return answer
}

// render runs Helm's engine as `helm template` does: the chart's values coalesced with the given files in order,
// the release in its namespace, Helm's default capabilities.
func render(req request) ([]string, error) {
	chart, err := loader.Load(req.Chart)
	if err != nil {
		return nil, err
	}
	values := map[string]any{}
	for i, text := range req.Values {
		file, err := chartutil.ReadValues([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("values file %d: %w", i+1, err)
		}
		values = chartutil.MergeTables(file, values)
	}
	options := chartutil.ReleaseOptions{Name: req.Release, Namespace: req.Namespace, Revision: 1, IsInstall: true}
	renderValues, err := chartutil.ToRenderValues(chart, values, options, chartutil.DefaultCapabilities)
	if err != nil {
		return nil, err
	}
	files, err := engine.Render(chart, renderValues)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	manifests := make([]string, 0, len(names))
	for _, name := range names {
		if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
			manifests = append(manifests, files[name])
		}
	}
	return manifests, nil
}

func findConfigMap(manifests []string, name string) (object, bool, error) {
	for _, manifest := range manifests {
		for _, document := range releaseutil.SplitManifests(manifest) {
			var candidate object
			if err := yaml.Unmarshal([]byte(document), &candidate); err != nil {
				if strings.Contains(document, name) {
					return object{}, false, fmt.Errorf("a document naming %s is not readable YAML: %w", name, err)
				}
				continue
			}
			if candidate.Kind == "ConfigMap" && candidate.Metadata.Name == name {
				return candidate, true, nil
			}
		}
	}
	return object{}, false, nil
}

// stringData is the ConfigMap's data as the API server takes it, or why it would refuse it.
func stringData(configMap object) (map[string]string, string) {
	data := map[string]string{}
	for key, value := range configMap.Data {
		text, ok := value.(string)
		if !ok {
			return nil, fmt.Sprintf("data.%s is a %T, not a string (the API server refuses the ConfigMap)", key, value)
		}
		data[key] = text
	}
	return data, ""
}

// compareData compares each key's value as the engine reads it: a value that is YAML (every notifications key is)
// as YAML 1.1 into generic JSON, any other as its text.
func compareData(chart, ours map[string]string) []string {
	keys := map[string]bool{}
	for key := range chart {
		keys[key] = true
	}
	for key := range ours {
		keys[key] = true
	}
	sorted := make([]string, 0, len(keys))
	for key := range keys {
		sorted = append(sorted, key)
	}
	sort.Strings(sorted)
	var differences []string
	for _, key := range sorted {
		chartText, inChart := chart[key]
		ourText, inOurs := ours[key]
		switch {
		case !inChart:
			differences = append(differences, fmt.Sprintf("data.%s: missing from the chart's ConfigMap", key))
		case !inOurs:
			differences = append(differences, fmt.Sprintf("data.%s: only in the chart's ConfigMap", key))
		case !sameValue(chartText, ourText):
			differences = append(differences, fmt.Sprintf("data.%s: chart %q, glidepath %q", key, chartText, ourText))
		}
	}
	return differences
}

func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	var readA, readB any
	if yaml.Unmarshal([]byte(a), &readA) != nil || yaml.Unmarshal([]byte(b), &readB) != nil {
		return false
	}
	return reflect.DeepEqual(readA, readB)
}
