//go:build tools

// Package tools pins the Argo Rollouts controller the e2e run builds.
package tools

import _ "github.com/argoproj/argo-rollouts/cmd/rollouts-controller"
