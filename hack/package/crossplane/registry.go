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

package crossplane

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// A Registry is an OCI registry on 127.0.0.1 that serves TLS with a
// certificate of its own CA.
type Registry struct {
	Host   string // 127.0.0.1:port
	CAFile string // the CA bundle Crossplane is given
	server *httptest.Server
	pool   *x509.CertPool
}

// StartRegistry starts an in-memory registry; dir receives the CA bundle.
func StartRegistry(dir string) (*Registry, error) {
	ca, err := NewCA("registry CA")
	if err != nil {
		return nil, err
	}
	certPEM, keyPEM, err := ca.Serving()
	if err != nil {
		return nil, err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	caFile := filepath.Join(dir, "registry-ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		return nil, err
	}
	srv := httptest.NewUnstartedServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	return &Registry{Host: strings.TrimPrefix(srv.URL, "https://"), CAFile: caFile, server: srv, pool: pool}, nil
}

// Push pushes a package file (an OCI image tarball, as crank writes it) and
// returns its reference.
func (r *Registry) Push(file, repo, tag string) (string, error) {
	img, err := tarball.ImageFromPath(file, nil)
	if err != nil {
		return "", err
	}
	ref, err := name.ParseReference(r.Host + "/" + repo + ":" + tag)
	if err != nil {
		return "", err
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: r.pool, MinVersion: tls.VersionTLS12}}
	if err := remote.Write(ref, img, remote.WithTransport(tr)); err != nil {
		return "", err
	}
	return ref.String(), nil
}

// Stop stops the registry.
func (r *Registry) Stop() { r.server.Close() }
