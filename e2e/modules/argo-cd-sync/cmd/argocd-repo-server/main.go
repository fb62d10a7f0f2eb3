// Command argocd-repo-server runs the Argo CD repo server, the same command the argocd binary serves under the
// name argocd-repo-server, without linking the rest of Argo CD.
package main

import (
	"fmt"
	"os"

	reposerver "github.com/argoproj/argo-cd/v3/cmd/argocd-repo-server/commands"
	"github.com/argoproj/argo-cd/v3/common"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "version" {
		fmt.Println(common.GetVersion().Version)
		return
	}
	if err := reposerver.NewCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
