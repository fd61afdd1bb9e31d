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

// Command awsmodels writes, for every AWS operation the provider calls, the
// errors AWS's published API model lists for it, read from botocore's data
// (installed with boto3). The provider's error handling (awserrors) is
// written from what AWS answered in practice; the modeled errors are what AWS
// says it may answer, so that a test can tell which of those the provider
// does not know, and a new SDK or model release that adds one is noticed.
//
// The operations are the methods of the API interfaces of the provider's
// service clients, so a call added there is covered without editing this
// command, plus the STS operations the SDK's credential providers call.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

// A service is an AWS service the provider calls, and where its operations
// and its model are found.
type service struct {
	// file is the Go file whose API interface lists the operations the
	// provider calls, one method per operation, named as the operation.
	file string
	// ops are the operations when no file of ours lists them (STS, which
	// the SDK's credential providers call).
	ops []string
	// serviceID is the name the SDK gives the service in
	// smithy.OperationError.ServiceID and awsmiddleware.GetServiceID (the
	// ServiceID constant of its api_client.go); the model's
	// metadata.serviceId must say the same.
	serviceID string
}

var services = []service{
	{file: "internal/aws/firehose/firehose.go", serviceID: "Firehose"},
	{file: "internal/aws/sns/sns.go", serviceID: "SNS"},
	{file: "internal/aws/sagemaker/sagemaker.go", serviceID: "SageMaker"},
	{file: "internal/aws/eventbridge/eventbridge.go", serviceID: "EventBridge"},
	{file: "internal/aws/agentcore/agentcore.go", serviceID: "Bedrock AgentCore Control"},
	// The SDK's credential providers (stscreds: AssumeRole, and
	// AssumeRoleWithWebIdentity for web identities), and GetCallerIdentity,
	// which awsconfig calls with the credentials they make.
	{ops: []string{"AssumeRole", "AssumeRoleWithWebIdentity", "GetCallerIdentity"}, serviceID: "STS"},
}

func main() {
	out := flag.String("out", "internal/aws/awserrors/zz_generated.modeled.go", "file to write")
	boto := flag.String("botocore", "", "botocore's package directory (default: the one python3 imports)")
	header := flag.String("header", "hack/boilerplate.go.txt", "license header of the written file")
	want := flag.String("botocore-version", "", "the botocore version the models must come from (the Makefile pins it), so that every machine writes the same file")
	flag.Parse()

	dir, version, err := findBotocore(*boto)
	if err != nil {
		log.Fatal(err)
	}
	if *want != "" && version != *want {
		log.Fatalf("botocore %s is installed, and the models are pinned at %s: pip install botocore==%s (or boto3 of that botocore), or change BOTOCORE_VERSION in the Makefile", version, *want, *want)
	}
	lic, err := os.ReadFile(*header)
	if err != nil {
		log.Fatal(err)
	}
	modeled := map[string][]modeledError{}
	models := make([]string, 0, len(services))
	for _, s := range services {
		ops := s.ops
		if s.file != "" {
			if ops, err = apiMethods(s.file, nil); err != nil {
				log.Fatal(err)
			}
		}
		svc, known := quota.ServiceOf(s.serviceID)
		if !known {
			log.Fatalf("%s is not among quota.Services, which name its botocore model", s.serviceID)
		}
		m, apiVersion, err := loadModel(filepath.Join(dir, "data"), svc.Botocore)
		if err != nil {
			log.Fatalf("botocore %s: %v", version, err)
		}
		if m.Metadata.ServiceID != s.serviceID {
			log.Fatalf("botocore %s: the model of %s names the service %q, not %q: is the SDK's ServiceID still %q?",
				version, svc.Botocore, m.Metadata.ServiceID, s.serviceID, s.serviceID)
		}
		models = append(models, svc.Botocore+"/"+apiVersion)
		for _, op := range ops {
			errs, err := m.errorsOf(op)
			if err != nil {
				where := "the API interface of " + s.file
				if s.file == "" {
					where = "the operations hack/awsmodels lists for " + s.serviceID
				}
				log.Fatalf("botocore %s, %s/%s: %v (it is in %s)", version, svc.Botocore, apiVersion, err, where)
			}
			modeled[s.serviceID+":"+op] = errs
		}
	}
	src, err := render(string(lic), version, models, modeled)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// findBotocore returns botocore's package directory, the one python3 imports
// unless dir names one, and its version.
func findBotocore(dir string) (string, string, error) {
	if dir == "" {
		cmd := exec.Command("python3", "-c", "import botocore, os; print(os.path.dirname(botocore.__file__))")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				err = fmt.Errorf("%w: %s", err, msg)
			}
			return "", "", fmt.Errorf("cannot find botocore (install boto3 for python3, or pass --botocore DIR): python3 -c 'import botocore': %w", err)
		}
		dir = strings.TrimSpace(string(b))
	}
	pkg, err := os.ReadFile(filepath.Join(dir, "__init__.py"))
	if err != nil {
		return "", "", fmt.Errorf("cannot find botocore in %s: %w", dir, err)
	}
	version := botocoreVersion(string(pkg))
	if version == "" {
		return "", "", fmt.Errorf("no __version__ in %s", filepath.Join(dir, "__init__.py"))
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err != nil {
		return "", "", fmt.Errorf("botocore %s in %s has no models: %w", version, dir, err)
	}
	return dir, version, nil
}

var versionRE = regexp.MustCompile(`(?m)^__version__\s*=\s*['"]([^'"]+)['"]`)

// botocoreVersion returns the __version__ that pkg, botocore/__init__.py,
// sets, or "".
func botocoreVersion(pkg string) string {
	if m := versionRE.FindStringSubmatch(pkg); m != nil {
		return m[1]
	}
	return ""
}

// apiMethods returns the names of the methods of the interfaces named API
// that filename declares, in their order. src is the source as for
// parser.ParseFile: nil reads filename.
func apiMethods(filename string, src any) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	found := false
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok || ts.Name.Name != "API" {
				continue
			}
			it, ok := ts.Type.(*ast.InterfaceType)
			if !ok {
				return nil, fmt.Errorf("%s: API is not an interface", filename)
			}
			found = true
			for _, m := range it.Methods.List {
				if len(m.Names) == 0 {
					// An embedded interface would hide operations
					// from a reader of this file too.
					return nil, fmt.Errorf("%s: API embeds %s: list its operations as methods", filename, types(m.Type))
				}
				for _, n := range m.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s declares no API interface", filename)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: API has no methods", filename)
	}
	return names, nil
}

// types returns a short text of an embedded type, for an error message.
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return types(t.X) + "." + t.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// A model is the part of a botocore service-2.json this command reads.
type model struct {
	Metadata struct {
		Protocol  string `json:"protocol"`
		ServiceID string `json:"serviceId"`
		// AWSQueryCompatible marks a JSON service that answers with
		// its former query protocol's codes too.
		AWSQueryCompatible json.RawMessage `json:"awsQueryCompatible"`
	} `json:"metadata"`
	Operations map[string]struct {
		Errors []struct {
			Shape string `json:"shape"`
		} `json:"errors"`
	} `json:"operations"`
	Shapes map[string]shape `json:"shapes"`
}

// A shape is an error shape: botocore writes Smithy's @error("server") as
// fault, and @awsQueryError and @httpError as error.
type shape struct {
	Exception     bool   `json:"exception"`
	Fault         bool   `json:"fault"`
	Documentation string `json:"documentation"`
	Error         *struct {
		Code           string `json:"code"`
		HTTPStatusCode int    `json:"httpStatusCode"`
		SenderFault    bool   `json:"senderFault"`
	} `json:"error"`
}

// A modeledError is an error the model lists for an operation, as the
// generated file writes it.
type modeledError struct {
	Code   string
	Status int
	Server bool
	Doc    string
}

// loadModel reads the newest model of service under data, and returns it
// with its API version.
func loadModel(data, service string) (*model, string, error) {
	versions, err := os.ReadDir(filepath.Join(data, service))
	if err != nil {
		return nil, "", fmt.Errorf("no model of %s: %w", service, err)
	}
	var names []string
	for _, v := range versions {
		if v.IsDir() {
			names = append(names, v.Name())
		}
	}
	if len(names) == 0 {
		return nil, "", fmt.Errorf("no model of %s in %s", service, filepath.Join(data, service))
	}
	// API versions are dates, YYYY-MM-DD: the newest sorts last.
	sort.Strings(names)
	apiVersion := names[len(names)-1]
	dir := filepath.Join(data, service, apiVersion)
	b, err := readModel(dir)
	if err != nil {
		return nil, "", err
	}
	m, err := parseModel(b)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", dir, err)
	}
	return m, apiVersion, nil
}

// readModel reads service-2.json of dir, compressed (newer botocore) or not.
func readModel(dir string) ([]byte, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "service-2.json")); err == nil {
		return b, nil
	}
	f, err := os.Open(filepath.Join(dir, "service-2.json.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return io.ReadAll(z)
}

func parseModel(b []byte) (*model, error) {
	m := &model{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, err
	}
	return m, nil
}

// errorsOf returns the errors the model lists for op, sorted by code, or an
// error if the model has no operation op.
func (m *model) errorsOf(op string) ([]modeledError, error) {
	o, ok := m.Operations[op]
	if !ok {
		return nil, fmt.Errorf("operation %s is not in the model of %s", op, m.Metadata.ServiceID)
	}
	errs := make([]modeledError, 0, len(o.Errors))
	seen := map[string]bool{}
	for _, ref := range o.Errors {
		s, ok := m.Shapes[ref.Shape]
		if !ok {
			return nil, fmt.Errorf("operation %s lists the error %s, which the model does not define", op, ref.Shape)
		}
		e := modeledError{Code: m.code(ref.Shape, s), Server: s.Fault, Doc: firstSentence(s.Documentation)}
		switch {
		case s.Error != nil && s.Error.HTTPStatusCode != 0:
			e.Status = s.Error.HTTPStatusCode
		case e.Server:
			// Smithy's default for an error without @httpError.
			e.Status = 500
		default:
			e.Status = 400
		}
		if seen[e.Code] {
			continue
		}
		seen[e.Code] = true
		errs = append(errs, e)
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Code < errs[j].Code })
	return errs, nil
}

// code returns the code smithy.APIError.ErrorCode returns for the error
// shape name: the shape's name, except where the wire carries a query
// protocol's code (error.code, Smithy's @awsQueryError): SNS's
// NotFoundException answers NotFound, and the SDK's NotFoundException says
// so. A JSON service answers with the shape's name (X-Amzn-ErrorType), or,
// if query compatible, with the query code (X-Amzn-Query-Error), which the
// SDK puts in ErrorCodeOverride.
func (m *model) code(name string, s shape) string {
	query := m.Metadata.Protocol == "query" || m.Metadata.Protocol == "ec2" || len(m.Metadata.AWSQueryCompatible) > 0
	if query && s.Error != nil && s.Error.Code != "" {
		return s.Error.Code
	}
	return name
}
