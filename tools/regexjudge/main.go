// Command regexjudge answers, for each pattern, whether Go's regexp.Compile accepts it: expr-lang compiles the
// constant pattern of `matches` with it when a trigger loads, so a pattern it refuses fails the whole trigger.
// The answer is that of the Go release that builds this program; the judge builds it with each release whose
// regexp/syntax differs (GOTOOLCHAIN), as the engines of the supported releases were built with several.
//
// In, one JSON object a line:  {"pattern": "^api-(?P<n>\\d+)$"}
// Out, one JSON object a line: {"valid": true} or {"valid": false, "code": "missing closing )", "error": "..."}
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"regexp/syntax"
)

type request struct {
	Pattern string `json:"pattern"`
}

type verdict struct {
	Valid bool   `json:"valid"`
	Code  string `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// main reads stdin a line at a time (one pattern per line can be long: the buffer grows to 64 MiB).
func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<16), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for scanner.Scan() {
		var req request
		if err := json.Unmarshal(scanner.Bytes(), &req); err != nil {
			fail(err)
		}
		if err := encoder.Encode(judge(req.Pattern)); err != nil {
			fail(err)
		}
	}
	if err := scanner.Err(); err != nil {
		fail(err)
	}
	if err := out.Flush(); err != nil {
		fail(err)
	}
}

func judge(pattern string) verdict {
	if _, err := regexp.Compile(pattern); err != nil {
		answer := verdict{Error: err.Error()}
		var syntaxErr *syntax.Error
		if errors.As(err, &syntaxErr) {
			answer.Code = syntaxErr.Code.String()
		}
		return answer
	}
	return verdict{Valid: true}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "regexjudge:", err)
	os.Exit(2)
}
