package main

import (
	"fmt"
	"strings"
	"time"
)

// engineVars is what the engine hands to expressions and templates. Argo Rollouts (utils/record/record.go):
// rollout, time {Parse, Now}, and from 1.7 on secrets and analysisRuns. Argo CD (util/notification/settings and
// expression): app, context (with notificationType), time, strings, repo; repo's functions need a live repo
// server and are left out, so a trigger that calls them fails here. `names` lists the variables the release has.
func engineVars(engine string, names []string, object map[string]any, context map[string]string) map[string]any {
	all := map[string]any{}
	switch engine {
	case "argo-rollouts":
		all["rollout"] = object
		all["time"] = map[string]any{"Parse": parseRFC3339, "Now": time.Now}
		all["secrets"] = map[string][]byte{}
		all["analysisRuns"] = []any{}
	case "argo-cd":
		withType := map[string]string{"notificationType": "webhook"}
		for key, value := range context {
			withType[key] = value
		}
		all["app"] = object
		all["context"] = withType
		all["time"] = argocdTime()
		all["strings"] = map[string]any{"ReplaceAll": strings.ReplaceAll}
	default:
		panic(fmt.Sprintf("unknown engine %q", engine))
	}
	vars := map[string]any{}
	for _, name := range names {
		if value, ok := all[name]; ok {
			vars[name] = value
		}
	}
	return vars
}

func parseRFC3339(timestamp string) time.Time {
	parsed, err := time.Parse(time.RFC3339, timestamp)
	if err != nil {
		panic(err)
	}
	return parsed
}

func argocdTime() map[string]any {
	return map[string]any{
		"Parse": parseRFC3339, "Now": time.Now,
		"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond,
		"Second": time.Second, "Minute": time.Minute, "Hour": time.Hour,
		"Layout": time.Layout, "ANSIC": time.ANSIC, "UnixDate": time.UnixDate, "RubyDate": time.RubyDate,
		"RFC822": time.RFC822, "RFC822Z": time.RFC822Z, "RFC850": time.RFC850, "RFC1123": time.RFC1123,
		"RFC1123Z": time.RFC1123Z, "RFC3339": time.RFC3339, "RFC3339Nano": time.RFC3339Nano, "Kitchen": time.Kitchen,
		"Stamp": time.Stamp, "StampMilli": time.StampMilli, "StampMicro": time.StampMicro, "StampNano": time.StampNano,
	}
}
