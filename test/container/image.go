//go:build e2e

/*
Copyright 2026 The provider-aws-services Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package container runs the provider's runtime image as it ships: the image
// tarball `make image` writes, unpacked into an OCI bundle and run by runc
// as the image's user, on a read-only root filesystem, with no capabilities,
// with the in-cluster configuration a kubelet mounts, against a real API
// server and the AWS emulator behind TLS.
//
// The tarball is read with the standard library (archive/tar, gzip): the
// image is one layer the project builds itself (hack/package/image), and the
// provider's module stays free of go-containerregistry, which only the
// packaging module (hack/package) needs.
package container

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// An Image is an image tarball unpacked into a root filesystem.
type Image struct {
	// Config is the image's configuration.
	Config ImageConfig
	// Rootfs is the folder its layers were unpacked into.
	Rootfs string
	// TarballBytes is the size of the image tarball; LayerBytes the size of
	// its compressed layers; RootfsBytes the size of the regular files
	// unpacked, and Files their number.
	TarballBytes, LayerBytes, RootfsBytes int64
	Files                                 int
}

// ImageConfig is the part of an OCI image configuration a runtime reads.
type ImageConfig struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		User       string   `json:"User"`
		Env        []string `json:"Env"`
		Entrypoint []string `json:"Entrypoint"`
		Cmd        []string `json:"Cmd"`
		WorkingDir string   `json:"WorkingDir"`
	} `json:"config"`
	RootFS struct {
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
}

// Env returns the value of the image's environment variable name.
func (c ImageConfig) Env(name string) (string, bool) {
	for _, kv := range c.Config.Env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v, true
		}
	}
	return "", false
}

// manifest is the manifest.json of an image tarball (`docker save`'s format,
// which go-containerregistry's tarball.Write writes): the configuration's
// file and the layers' files, the base layer first.
type manifest []struct {
	Config string   `json:"Config"`
	Layers []string `json:"Layers"`
}

// Unpack unpacks the one image of the image tarball file into dir/rootfs,
// layer after layer, as a container runtime does. It checks the digests
// the tarball names: the configuration's, and each layer's uncompressed
// diff ID against the configuration.
func Unpack(file, dir string) (*Image, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	blobs, err := readTar(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", file, err)
	}
	var m manifest
	if err := json.Unmarshal(blobs["manifest.json"], &m); err != nil {
		return nil, fmt.Errorf("manifest.json of %s: %w", file, err)
	}
	if len(m) != 1 {
		return nil, fmt.Errorf("%s holds %d images, want one", file, len(m))
	}
	raw, ok := blobs[m[0].Config]
	if !ok {
		return nil, fmt.Errorf("%s has no configuration %s", file, m[0].Config)
	}
	if got := digest(raw); !strings.Contains(m[0].Config, strings.TrimPrefix(got, "sha256:")) {
		return nil, fmt.Errorf("the configuration's digest is %s, not the one its name %s says", got, m[0].Config)
	}
	img := &Image{Rootfs: filepath.Join(dir, "rootfs"), TarballBytes: st.Size()}
	if err := json.Unmarshal(raw, &img.Config); err != nil {
		return nil, fmt.Errorf("the image's configuration: %w", err)
	}
	if len(img.Config.RootFS.DiffIDs) != len(m[0].Layers) {
		return nil, fmt.Errorf("%d layers, but the configuration names %d", len(m[0].Layers), len(img.Config.RootFS.DiffIDs))
	}
	if err := os.MkdirAll(img.Rootfs, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(img.Rootfs)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	for i, name := range m[0].Layers {
		layer, ok := blobs[name]
		if !ok {
			return nil, fmt.Errorf("%s has no layer %s", file, name)
		}
		img.LayerBytes += int64(len(layer))
		diffID, err := img.apply(root, layer)
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", name, err)
		}
		if diffID != img.Config.RootFS.DiffIDs[i] {
			return nil, fmt.Errorf("layer %s is %s unpacked, but the configuration says %s", name, diffID, img.Config.RootFS.DiffIDs[i])
		}
	}
	return img, nil
}

// readTar returns the files of a tar by name.
func readTar(file string) (map[string][]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out[path.Clean(h.Name)] = b
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// apply unpacks one gzipped layer into root and returns its diff ID, the
// digest of the uncompressed tar. os.Root keeps every path, symbolic links
// included, inside the root filesystem.
func (img *Image) apply(root *os.Root, layer []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(layer))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	tr := tar.NewReader(io.TeeReader(zr, h))
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		if err := img.entry(root, tr, hdr); err != nil {
			return "", fmt.Errorf("%s: %w", hdr.Name, err)
		}
	}
	// The tar's end-of-archive blocks belong to the digest too.
	if _, err := io.Copy(h, zr); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// entry writes one entry of a layer.
func (img *Image) entry(root *os.Root, r io.Reader, hdr *tar.Header) error {
	name := strings.TrimPrefix(path.Clean("/"+hdr.Name), "/")
	if name == "" {
		return nil
	}
	dir, base := path.Split(name)
	if dir != "" {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if strings.HasPrefix(base, ".wh.") {
		// The image builder writes one layer; whiteouts, which remove what
		// a lower layer put there, would come with a base image.
		return errors.New("whiteouts are not unpacked: a layered image needs go-containerregistry's mutate.Extract")
	}
	mode := hdr.FileInfo().Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := root.MkdirAll(name, mode); err != nil {
			return err
		}
	case tar.TypeReg:
		_ = root.RemoveAll(name)
		f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
		if err != nil {
			return err
		}
		n, err := io.Copy(f, r)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		img.RootfsBytes += n
		img.Files++
	case tar.TypeSymlink:
		_ = root.RemoveAll(name)
		return root.Symlink(hdr.Linkname, name)
	case tar.TypeLink:
		_ = root.RemoveAll(name)
		return root.Link(strings.TrimPrefix(path.Clean("/"+hdr.Linkname), "/"), name)
	default:
		return fmt.Errorf("entries of type %q are not unpacked", hdr.Typeflag)
	}
	// Owner and mode as the layer says (the umask narrowed the mode).
	if err := root.Lchown(name, hdr.Uid, hdr.Gid); err != nil {
		return err
	}
	return root.Chmod(name, mode)
}

// User resolves the image's user, "uid[:gid]" or "name[:group]", to numeric
// IDs through the image's own /etc/passwd and /etc/group, as a runtime does.
// Without a group the user's primary group applies.
func (img *Image) User() (uid, gid uint32, err error) {
	u, g, hasGroup := strings.Cut(img.Config.Config.User, ":")
	if u == "" {
		u = "0"
	}
	uid, primary, err := img.lookup("etc/passwd", u, 2, 3)
	if err != nil {
		return 0, 0, err
	}
	if !hasGroup {
		return uid, primary, nil
	}
	gid, _, err = img.lookup("etc/group", g, 2, 2)
	return uid, gid, err
}

// lookup returns the numbers in fields idField and secondField of the line
// of an /etc/passwd-like file whose first field, or ID field, is name; a
// numeric name not in the file stands for itself.
func (img *Image) lookup(file, name string, idField, secondField int) (id, second uint32, err error) {
	n, numErr := strconv.ParseUint(name, 10, 32)
	b, err := os.ReadFile(filepath.Join(img.Rootfs, file))
	if err != nil && numErr != nil {
		return 0, 0, fmt.Errorf("cannot look up %q: %w", name, err)
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Split(strings.TrimSpace(line), ":")
		if len(f) <= max(idField, secondField) || (f[0] != name && f[idField] != name) {
			continue
		}
		a, err1 := strconv.ParseUint(f[idField], 10, 32)
		c, err2 := strconv.ParseUint(f[secondField], 10, 32)
		if err := errors.Join(err1, err2); err != nil {
			return 0, 0, fmt.Errorf("/%s: %w", file, err)
		}
		return uint32(a), uint32(c), nil
	}
	if numErr == nil {
		return uint32(n), uint32(n), nil
	}
	return 0, 0, fmt.Errorf("no %q in the image's /%s", name, file)
}
