// Command urljudge answers, for each Veridor base URL, whether the gate can fetch it: Veridor reads the URL with Go's
// net/url Parse and fetches it with net/http. Valid means url.Parse accepts it, the scheme is http or https, there is
// a host, and the port (if any) is one net/http can dial (at most 65535). Whitespace and control characters are
// refused on purpose (glidepath's own rule, so that a line break and more text never reach the steps).
//
// In, one JSON object a line:  {"url": "http://invoices.shop:8080"}
// Out, one JSON object a line: {"valid": true} or {"valid": false, "error": "..."}
package main

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"glidepath-gitops/tools/judges/internal/jsonlines"
)

type request struct {
	URL string `json:"url"`
}

type verdict struct {
	Valid bool   `json:"valid"`
	Error string `json:"error,omitempty"`
}

func main() {
	jsonlines.Serve(judge)
}

func judge(req request) any {
	// JavaScript's \s and \p{Cc}: Go's IsSpace and IsControl, and U+FEFF, which \s holds and IsSpace does not.
	if strings.IndexFunc(req.URL, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\uFEFF'
	}) != -1 {
		return verdict{Error: "whitespace or a control character"}
	}
	parsed, err := url.Parse(req.URL)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	if parsed.Scheme != "http" && parsed.Scheme != "https" {
		return verdict{Error: "scheme " + strconv.Quote(parsed.Scheme)}
	}
	if parsed.Hostname() == "" {
		return verdict{Error: "no host"}
	}
	if port := parsed.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return verdict{Error: "port " + port}
		}
	}
	return verdict{Valid: true}
}
