// Command etcd runs the etcd server for the local control plane. etcd's own
// main package lives in a module that is not meant to be imported, so this is
// the same one-line entry point over the server module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
