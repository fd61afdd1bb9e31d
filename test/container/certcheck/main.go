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

// Command certcheck tells, inside the provider's container, which
// certificates the roots the provider's TLS trusts hold: it loads the
// system roots as any Go binary there does (SSL_CERT_FILE, SSL_CERT_DIR),
// as the container's user, and verifies each self-signed CA certificate it
// is given against them; a CA verifies alone exactly when it is among them.
//
//	certcheck trusted:FILE... untrusted:FILE...
//
// It prints one line per certificate and exits 1 if any is not as said.
package main

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"strings"
)

func main() {
	roots, err := x509.SystemCertPool()
	if err != nil {
		fmt.Println("cannot load the system roots:", err)
		os.Exit(1)
	}
	fmt.Printf("SSL_CERT_FILE=%s SSL_CERT_DIR=%s uid=%d\n", os.Getenv("SSL_CERT_FILE"), os.Getenv("SSL_CERT_DIR"), os.Getuid())
	failed := false
	for _, arg := range os.Args[1:] {
		want, file, _ := strings.Cut(arg, ":")
		cert, err := read(file)
		if err != nil {
			fmt.Println(file, err)
			failed = true
			continue
		}
		_, verr := cert.Verify(x509.VerifyOptions{Roots: roots})
		trusted := verr == nil
		fmt.Printf("%s %q trusted=%t\n", file, cert.Subject.CommonName, trusted)
		if trusted != (want == "trusted") {
			fmt.Printf("  want %s: %v\n", want, verr)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func read(file string) (*x509.Certificate, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("no PEM in %s", file)
	}
	return x509.ParseCertificate(block.Bytes)
}
