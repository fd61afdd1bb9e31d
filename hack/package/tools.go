//go:build tools

// Package tools pins the commands hack/package builds.
package tools

import (
	_ "github.com/crossplane-contrib/function-patch-and-transform"
	_ "github.com/crossplane/crossplane/v2/cmd/crank"
	_ "github.com/crossplane/crossplane/v2/cmd/crossplane"
)
