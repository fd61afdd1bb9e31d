// Package xpkg tests the Crossplane package `make xpkg` builds: its
// metadata, its CRDs and its embedded runtime image.
package xpkg

import (
	"archive/tar"
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	pkgkinds "github.com/cloudkinds/provider-aws-services/hack/package/kinds"
)

func packageFile(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("XPKG"); p != "" {
		return p
	}
	return filepath.Join(root(), "_output", "xpkg", "provider-aws-services.xpkg")
}

// root is the repository's root.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// files reads every file of every layer of an image.
func files(t *testing.T, img v1.Image) map[string][]byte {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(tr)
			out[strings.TrimPrefix(h.Name, "/")] = b
		}
		rc.Close()
	}
	return out
}

func TestPackage(t *testing.T) {
	img, err := tarball.ImageFromPath(packageFile(t), nil)
	if err != nil {
		t.Fatalf("cannot open the package (run make xpkg): %v", err)
	}
	fs := files(t, img)

	// The package stream: crossplane.yaml, then the CRDs.
	stream, ok := fs["package.yaml"]
	if !ok {
		t.Fatalf("no package.yaml among %v", keys(fs))
	}
	var (
		meta  map[string]any
		kinds []string
	)
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil || obj == nil {
			continue
		}
		switch obj["kind"] {
		case "Provider":
			meta = obj
		case "CustomResourceDefinition":
			spec := obj["spec"].(map[string]any)
			kinds = append(kinds, spec["names"].(map[string]any)["kind"].(string)+"."+spec["group"].(string))
		}
	}
	if meta == nil {
		t.Fatal("no Provider metadata in the package")
	}
	md := meta["metadata"].(map[string]any)
	spec := meta["spec"].(map[string]any)
	if md["name"] != "provider-aws-services" {
		t.Errorf("name %v", md["name"])
	}
	for _, a := range []string{"meta.crossplane.io/maintainer", "meta.crossplane.io/source", "meta.crossplane.io/license", "meta.crossplane.io/description", "meta.crossplane.io/readme"} {
		if _, ok := md["annotations"].(map[string]any)[a]; !ok {
			t.Errorf("no %s annotation", a)
		}
	}
	if caps, _ := spec["capabilities"].([]any); len(caps) != 1 || caps[0] != "safe-start" {
		t.Errorf("capabilities %v", spec["capabilities"])
	}
	if c, _ := spec["crossplane"].(map[string]any); c == nil || c["version"] == "" {
		t.Errorf("no Crossplane version constraint: %v", spec["crossplane"])
	}
	sort.Strings(kinds)
	// Every CRD make generate wrote, the provider's kinds and configs.
	crds, err := pkgkinds.CRDs(root())
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, 0, len(crds))
	for _, c := range crds {
		want = append(want, c.Kind+"."+c.Group)
	}
	sort.Strings(want)
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Errorf("CRDs:\n got %v\nwant %v", kinds, want)
	}

	// The runtime image: a static binary, a CA bundle, a non-root user.
	for _, f := range []string{"usr/local/bin/provider", "etc/ssl/certs/ca-certificates.crt", "etc/passwd"} {
		if len(fs[f]) == 0 {
			t.Errorf("the embedded runtime image lacks %s", f)
		}
	}
	if !bytes.HasPrefix(fs["usr/local/bin/provider"], []byte("\x7fELF")) {
		t.Error("the provider is not an ELF binary")
	}
	if !strings.Contains(string(fs["etc/ssl/certs/ca-certificates.crt"]), "BEGIN CERTIFICATE") {
		t.Error("the CA bundle holds no certificate")
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Config.User != "65532:65532" || len(cfg.Config.Entrypoint) != 1 || cfg.Config.Entrypoint[0] != "/usr/local/bin/provider" || cfg.OS != "linux" {
		t.Errorf("image config: user %q entrypoint %v os %s", cfg.Config.User, cfg.Config.Entrypoint, cfg.OS)
	}
	st, _ := os.Stat(packageFile(t))
	t.Logf("package: %.1f MiB, %d files, CRDs %d", float64(st.Size())/(1<<20), len(fs), len(kinds))
}

func keys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
