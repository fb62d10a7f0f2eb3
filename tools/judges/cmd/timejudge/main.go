// Command timejudge answers, for each text, whether Go's time.Parse(time.RFC3339, text) accepts it, as Kubernetes
// reads a metav1.Time (an Application's finishedAt), and the time in milliseconds since the epoch.
//
// In, one JSON object a line:  {"text": "2026-12-03T09:00:00Z"}
// Out, one JSON object a line: {"valid": true, "unixMilli": 1796288400000} or {"valid": false, "error": "..."}
package main

import (
	"time"

	"glidepath-gitops/tools/judges/internal/jsonlines"
)

type request struct {
	Text string `json:"text"`
}

type verdict struct {
	Valid     bool   `json:"valid"`
	UnixMilli int64  `json:"unixMilli,omitempty"`
	Error     string `json:"error,omitempty"`
}

func main() {
	jsonlines.Serve(judge)
}

func judge(req request) any {
	t, err := time.Parse(time.RFC3339, req.Text)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	return verdict{Valid: true, UnixMilli: t.UnixMilli()}
}
