//go:build tools

// Package tools pins the etcd server the e2e run builds.
package tools

import _ "go.etcd.io/etcd/server/v3"
