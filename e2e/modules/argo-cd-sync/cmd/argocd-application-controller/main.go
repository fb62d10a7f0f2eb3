// Command argocd-application-controller runs the Argo CD application controller, the same command the argocd
// binary serves under the name argocd-application-controller, without linking the rest of Argo CD.
package main

import (
	"fmt"
	"os"

	controller "github.com/argoproj/argo-cd/v3/cmd/argocd-application-controller/commands"
	"github.com/argoproj/argo-cd/v3/common"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "version" {
		fmt.Println(common.GetVersion().Version)
		return
	}
	if err := controller.NewCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
