// Package jsonlines runs a judge: one JSON object in per line on stdin, one JSON answer out per line on stdout.
package jsonlines

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Serve decodes each line of stdin into a fresh In and writes judge's answer as one line of JSON.
func Serve[In any](judge func(In) any) {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for lineNumber := 1; ; lineNumber++ {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var input In
			if decodeErr := json.Unmarshal(line, &input); decodeErr != nil {
				fail(fmt.Errorf("line %d: %w", lineNumber, decodeErr))
			}
			if encodeErr := encoder.Encode(judge(input)); encodeErr != nil {
				fail(encodeErr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
	}
	if err := out.Flush(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
