//go:build tools

// Package tools pins kwok, the fake kubelet the e2e run builds.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
