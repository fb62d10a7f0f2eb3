//go:build tools

// Package tools pins kustomize, the binary the Argo CD repo server runs to build kustomizations.
package tools

import _ "sigs.k8s.io/kustomize/kustomize/v5"
