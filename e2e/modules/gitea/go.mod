module glidepath.local/e2e/build/gitea

go 1.26.2

// Gitea is built as the main module (a writable copy of this module's folder), so that its own go.mod, with its
// replace lines, applies. This require pins it and go.sum verifies the download.
require code.gitea.io/gitea v1.26.0
