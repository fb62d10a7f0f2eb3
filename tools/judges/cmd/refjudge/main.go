// Command refjudge answers, for each container image reference, whether the kubelet of Kubernetes 1.28 accepts it:
// the kubelet parses container.image with github.com/docker/distribution/reference (v2.8.2) ParseNormalizedNamed and
// fails the pod with InvalidImageName on an error.
//
// In, one JSON object a line:  {"ref": "registry.example.com:5000/team/app:1.2.3"}
// Out, one JSON object a line: {"valid": true, "name": "registry.example.com:5000/team/app", "tag": "1.2.3"}
//
//	or {"valid": false, "error": "..."}
//
// "name" is the normalized name (docker.io/library/ added to a short one), the one the 255-character limit counts.
package main

import (
	// The kubelet links these (TLS needs them); go-digest accepts an algorithm only when its hash is linked in.
	_ "crypto/sha256"
	_ "crypto/sha512"

	"github.com/docker/distribution/reference"

	"glidepath-gitops/tools/judges/internal/jsonlines"
)

type request struct {
	Ref string `json:"ref"`
}

type verdict struct {
	Valid  bool   `json:"valid"`
	Error  string `json:"error,omitempty"`
	Name   string `json:"name,omitempty"`
	Tag    string `json:"tag,omitempty"`
	Digest string `json:"digest,omitempty"`
}

func main() {
	jsonlines.Serve(judge)
}

func judge(req request) any {
	named, err := reference.ParseNormalizedNamed(req.Ref)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	answer := verdict{Valid: true, Name: named.Name()}
	if tagged, ok := named.(reference.Tagged); ok {
		answer.Tag = tagged.Tag()
	}
	if digested, ok := named.(reference.Digested); ok {
		answer.Digest = digested.Digest().String()
	}
	return answer
}
