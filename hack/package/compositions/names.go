// Package compositions holds what the tests of the example Compositions
// share: the rule by which they name AWS resources.
package compositions

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// AWSName is the AWS name the example Compositions give a resource of the
// composite namespace/name (docs/decisions.md, "Names in Compositions"):
// "<namespace>-<name>" up to its first dot, cut to 55 characters and without
// a trailing hyphen, then a hyphen and the first 8 hex digits of the SHA-256
// of "<namespace>/<name>". It is written here without the Compositions'
// regular expression, as a second reading of the rule, which the render tests
// check the rendered names against and the Crossplane test finds resources
// by.
func AWSName(namespace, name string) string {
	prefix := namespace + "-" + name
	if i := strings.IndexByte(prefix, '.'); i >= 0 {
		prefix = prefix[:i]
	}
	if len(prefix) > 55 {
		prefix = prefix[:55]
	}
	prefix = strings.TrimRight(prefix, "-")
	sum := sha256.Sum256([]byte(namespace + "/" + name))
	return prefix + "-" + hex.EncodeToString(sum[:])[:8]
}
