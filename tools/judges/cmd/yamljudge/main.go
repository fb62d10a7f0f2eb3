// Command yamljudge reads YAML text the way the Argo engines and Kubernetes read glidepath's files: through
// sigs.k8s.io/yaml v1.6.0 (go.yaml.in/yaml/v2, YAML 1.1 resolution), the reader of Argo Rollouts v1.9.1, Argo CD
// 3.2.12 and notifications-engine. It answers with what the text holds once read, as JSON, for the caller to
// compare with what it wrote.
//
// In, one JSON object a line:  {"read": "documents" | "value" | "strings", "text": "..."}
//
//	documents: a file of documents split on "---" lines as kubectl and Argo CD split manifests, each read as
//	           sigs.k8s.io/yaml reads a manifest into unstructured JSON (YAMLToJSON)
//	value:     one document into JSON (Helm's values file, a ConfigMap value such as template.* or subscriptions)
//	strings:   one document into map[string]string, the type of ConfigMap data and of the notifications `context`
//	           (yaml.Unmarshal, which turns a scalar read as a bool or a number into its text, as the engines get it)
//
// Out, one JSON object a line: {"value": <JSON>} or {"documents": [<JSON>, ...]} or {"error": "..."}
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"

	"sigs.k8s.io/yaml"

	"glidepath-gitops/tools/judges/internal/jsonlines"
)

type request struct {
	Read string `json:"read"`
	Text string `json:"text"`
}

type answer struct {
	Value     json.RawMessage   `json:"value,omitempty"`
	Documents []json.RawMessage `json:"documents,omitempty"`
	Error     string            `json:"error,omitempty"`
}

func main() {
	jsonlines.Serve(judge)
}

func judge(req request) any {
	switch req.Read {
	case "documents":
		var documents []json.RawMessage
		for _, document := range splitDocuments(req.Text) {
			converted, err := yaml.YAMLToJSON([]byte(document))
			if err != nil {
				return answer{Error: err.Error()}
			}
			documents = append(documents, converted)
		}
		return answer{Documents: documents}
	case "value":
		converted, err := yaml.YAMLToJSON([]byte(req.Text))
		if err != nil {
			return answer{Error: err.Error()}
		}
		return answer{Value: converted}
	case "strings":
		var strings map[string]string
		if err := yaml.Unmarshal([]byte(req.Text), &strings); err != nil {
			return answer{Error: err.Error()}
		}
		encoded, _ := json.Marshal(strings)
		return answer{Value: encoded}
	}
	return answer{Error: "unknown read " + req.Read}
}

// splitDocuments splits as k8s.io/apimachinery's YAMLReader does: a line that is "---" (trailing space ignored)
// separates documents; a document of only blanks and comments is dropped.
func splitDocuments(text string) []string {
	var documents []string
	var current bytes.Buffer
	flush := func() {
		if hasContent(current.String()) {
			documents = append(documents, current.String())
		}
		current.Reset()
	}
	scanner := bufio.NewScanner(strings.NewReader(text))
	scanner.Buffer(make([]byte, 1<<20), 1<<28)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.HasPrefix(line, "---") && strings.TrimRight(line, " \t") == "---" {
			flush()
			continue
		}
		current.WriteString(line)
		current.WriteByte('\n')
	}
	flush()
	return documents
}

func hasContent(document string) bool {
	for _, line := range strings.Split(document, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") {
			return true
		}
	}
	return false
}
