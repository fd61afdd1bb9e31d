// Command image assembles the provider's runtime image without a Docker
// engine: a static binary on an empty base, with a CA bundle and a non-root
// user, written as an image tarball per platform.
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

const (
	uid        = 65532
	binaryPath = "/usr/local/bin/provider"
	caPath     = "/etc/ssl/certs/ca-certificates.crt"
)

func main() {
	var (
		binary  = flag.String("binary", "", "the static provider binary")
		caFile  = flag.String("ca-bundle", caPath, "the CA bundle to ship")
		arch    = flag.String("arch", "amd64", "the image's architecture")
		tag     = flag.String("tag", "provider-aws-services:dev", "the image's reference inside the tarball")
		out     = flag.String("out", "", "the image tarball to write")
		version = flag.String("version", "dev", "the image's version label")
	)
	flag.Parse()
	if *binary == "" || *out == "" {
		log.Fatal("--binary and --out are required")
	}
	bin, err := os.ReadFile(*binary)
	if err != nil {
		log.Fatal(err)
	}
	ca, err := os.ReadFile(*caFile)
	if err != nil {
		log.Fatalf("cannot read the CA bundle (install Debian's ca-certificates): %v", err)
	}
	layer, err := tarball.LayerFromOpener(opener(map[string]file{
		"etc/passwd":                        {mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/home/nonroot:/sbin/nologin\n", uid, uid))},
		"etc/group":                         {mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", uid))},
		strings.TrimPrefix(caPath, "/"):     {mode: 0o644, data: ca},
		strings.TrimPrefix(binaryPath, "/"): {mode: 0o755, data: bin},
	}))
	if err != nil {
		log.Fatal(err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		log.Fatal(err)
	}
	cfg = cfg.DeepCopy() // keeps the layers' diff IDs
	cfg.Architecture, cfg.OS = *arch, "linux"
	cfg.Created = v1.Time{Time: time.Unix(0, 0)}
	cfg.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", uid, uid),
		Entrypoint: []string{binaryPath},
		Env:        []string{"SSL_CERT_FILE=" + caPath},
		Labels:     map[string]string{"org.opencontainers.image.title": "provider-aws-services", "org.opencontainers.image.version": *version},
	}
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		log.Fatal(err)
	}
	ref, err := name.ParseReference(*tag)
	if err != nil {
		log.Fatal(err)
	}
	if err := tarball.WriteToFile(*out, ref, img); err != nil {
		log.Fatal(err)
	}
	d, _ := img.Digest()
	fmt.Printf("%s %s\n", *out, d)
}

type file struct {
	mode int64
	data []byte
}

// opener returns the tar of the files, with their parent folders, owned by
// root and dated at the epoch so that the image is reproducible.
func opener(files map[string]file) tarball.Opener {
	return func() (ioReadCloser, error) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		dirs := map[string]bool{}
		for _, p := range sortedKeys(files) {
			parts := strings.Split(p, "/")
			for i := 1; i < len(parts); i++ {
				d := strings.Join(parts[:i], "/") + "/"
				if !dirs[d] {
					dirs[d] = true
					if err := tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755, ModTime: time.Unix(0, 0)}); err != nil {
						return nil, err
					}
				}
			}
			f := files[p]
			if err := tw.WriteHeader(&tar.Header{Name: p, Mode: f.mode, Size: int64(len(f.data)), ModTime: time.Unix(0, 0)}); err != nil {
				return nil, err
			}
			if _, err := tw.Write(f.data); err != nil {
				return nil, err
			}
		}
		if err := tw.Close(); err != nil {
			return nil, err
		}
		return nopCloser{bytes.NewReader(buf.Bytes())}, nil
	}
}
