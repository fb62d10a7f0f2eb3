// Command argocd-notifications runs the Argo CD notifications controller, the same command the argocd binary
// serves under the name argocd-notifications, without linking the rest of Argo CD.
package main

import (
	"fmt"
	"os"

	notification "github.com/argoproj/argo-cd/v3/cmd/argocd-notification/commands"
	"github.com/argoproj/argo-cd/v3/common"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "version" {
		fmt.Println(common.GetVersion().Version)
		return
	}
	if err := notification.NewCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
