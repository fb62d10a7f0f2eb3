// Command cronjudge answers, for each CronJob schedule, what a Kubernetes 1.28 API server decides and, for an
// accepted one, when the CronJob controller runs it: robfig/cron v3.0.1's ParseStandard and Schedule.Next in UTC.
//
// In, one JSON object a line:  {"schedule": "17 */6 * * *", "from": "2026-01-01T00:00:00Z", "runs": 5}
// Out, one JSON object a line: {"valid": true, "runs": ["2026-01-01T00:17:00Z", ...]}
//
//	or {"valid": false, "error": "..."}
//
// A run that Next cannot find (robfig/cron gives up five years after `from`) is null, and ends the list.
package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"glidepath-gitops/tools/judges/internal/jsonlines"
)

type request struct {
	Schedule string `json:"schedule"`
	From     string `json:"from"`
	Runs     int    `json:"runs"`
}

type verdict struct {
	Valid bool      `json:"valid"`
	Error string    `json:"error,omitempty"`
	Runs  []*string `json:"runs,omitempty"`
}

const runFormat = "2006-01-02T15:04:05Z"

func main() {
	jsonlines.Serve(judge)
}

func judge(req request) any {
	schedule, err := validate(req.Schedule)
	if err != nil {
		return verdict{Error: err.Error()}
	}
	from, err := time.Parse(time.RFC3339, req.From)
	if err != nil {
		return verdict{Error: fmt.Sprintf("bad from %q: %v", req.From, err)}
	}
	runs := []*string{}
	at := from.UTC()
	for len(runs) < req.Runs {
		at = schedule.Next(at)
		if at.IsZero() {
			runs = append(runs, nil)
			break
		}
		text := at.UTC().Format(runFormat)
		runs = append(runs, &text)
	}
	return verdict{Valid: true, Runs: runs}
}

// validate is what k8s.io/kubernetes/pkg/apis/batch/validation (v1.28) does with spec.schedule on create:
// Required when empty, cron.ParseStandard, and no "TZ" anywhere in it.
func validate(spec string) (schedule cron.Schedule, err error) {
	if spec == "" {
		return nil, fmt.Errorf("Required value")
	}
	defer func() {
		// robfig/cron v3.0.1 panics on "TZ=<zone>" without a space; the API server answers that with an error too.
		if recovered := recover(); recovered != nil {
			schedule, err = nil, fmt.Errorf("panic in cron.ParseStandard: %v", recovered)
		}
	}()
	schedule, err = cron.ParseStandard(spec)
	if err == nil && strings.Contains(spec, "TZ") {
		err = fmt.Errorf("cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
	}
	if err != nil {
		return nil, err
	}
	return schedule, nil
}
