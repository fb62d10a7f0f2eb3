//go:build antonmedv

package main

import (
	"github.com/antonmedv/expr"
	"github.com/antonmedv/expr/vm"
)

const exprModule = "github.com/antonmedv/expr"

// compile is what notifications-engine's triggers.NewService does: no env, so every variable is looked up at run time.
func compile(source string) (*vm.Program, error) { return expr.Compile(source) }

func run(program *vm.Program, vars map[string]any) (any, error) { return expr.Run(program, vars) }
