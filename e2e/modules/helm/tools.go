//go:build tools

// Package tools pins helm, the binary the Argo CD repo server runs to render charts.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
