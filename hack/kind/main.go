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

// Command kind scaffolds a new managed resource kind (make kind GROUP=
// KIND= SERVICE=): its API type, its kind package with its one value
// (reconciler.Kind) and its conformance test, its example, its emulation
// from the emulator's generic store, its workload and its section of
// docs/api-mapping.md; it adds the kind to the provider's list
// (internal/provider/kinds.go), its group to the API scheme (apis/apis.go)
// and its operations to its service's API interface, then make generate
// writes the rest. The kind compiles, registers and passes the conformance
// suite against the emulator as it is; a person then gives it its real
// fields and calls. It prints every file it wrote or changed.
//
// The service must be one the provider calls already (quota.Services) and
// the emulator speaks JSON to, and its operations must follow AWS's common
// naming: Create<Kind>, Describe<Kind>, Delete<Kind> and List<Kind>s, with
// <Kind>Name and <Kind>Arn.
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
	"unicode"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

//go:embed templates/*.tmpl
var templates embed.FS

// A scaffold is what the templates are written from.
type scaffold struct {
	Header      string
	Group       string // the API group: "eventarchive.services.k8s.aws"
	GroupShort  string // its first label, the folder: "eventarchive"
	Kind        string // "Archive"
	Lower       string // "archive": the package and file names
	LowerCamel  string // "archive": the connection keys' prefix
	Noun        string // "archive": what messages call it
	Service     string // the SDK's package: "eventbridge"
	ServiceID   string // the SDK's service ID: "EventBridge"
	ClientDir   string // the service's folder under internal/aws: "eventbridge"
	SigningName string
}

var (
	kindName  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`)
	groupName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
)

func main() {
	group := flag.String("group", "", "the API group's first label: eventarchive (the group is <group>.services.k8s.aws)")
	kind := flag.String("kind", "", "the kind, in UpperCamelCase: Archive")
	service := flag.String("service", "", "the AWS SDK for Go v2 package of its service: eventbridge")
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	s, err := newScaffold(*root, *group, *kind, *service)
	if err != nil {
		log.Fatal(err)
	}
	written, err := s.write(*root)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range written {
		fmt.Println(f)
	}
}

func newScaffold(root, group, kind, service string) (*scaffold, error) {
	switch {
	case !groupName.MatchString(group):
		return nil, fmt.Errorf("GROUP %q: want a lowercase label, such as eventarchive", group)
	case !kindName.MatchString(kind):
		return nil, fmt.Errorf("KIND %q: want UpperCamelCase, such as Archive", kind)
	}
	var svc quota.Service
	for _, s := range quota.Services {
		if strings.ToLower(strings.ReplaceAll(s.ID, " ", "")) == service {
			svc = s
		}
	}
	if svc.ID == "" {
		return nil, fmt.Errorf("SERVICE %q is not a service the provider calls (quota.Services): add the service, its quotas and its emulation first", service)
	}
	dir, err := clientDir(root, service)
	if err != nil {
		return nil, err
	}
	header, err := os.ReadFile(filepath.Join(root, "hack", "boilerplate.go.txt"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "kinds", group, strings.ToLower(kind))); err == nil {
		return nil, fmt.Errorf("internal/kinds/%s/%s exists", group, strings.ToLower(kind))
	}
	return &scaffold{
		Header: strings.TrimSpace(strings.ReplaceAll(string(header), "YEAR", "2026")) + "\n",
		Group:  group + ".services.k8s.aws", GroupShort: group,
		Kind: kind, Lower: strings.ToLower(kind), LowerCamel: strings.ToLower(kind[:1]) + kind[1:], Noun: words(kind),
		Service: service, ServiceID: svc.ID, SigningName: svc.SigningName, ClientDir: dir,
	}, nil
}

// words is a kind's name as words: "GlobalTable" is "global table".
func words(kind string) string {
	var b strings.Builder
	for i, r := range kind {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// clientDir is the folder under internal/aws of the service's client: the
// one whose API interface lists the operations the provider calls.
func clientDir(root, service string) (string, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "internal", "aws", "*", "*.go"))
	if err != nil {
		return "", err
	}
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		if bytes.Contains(b, []byte(`"github.com/aws/aws-sdk-go-v2/service/`+service+`"`)) && bytes.Contains(b, []byte("type API interface {")) {
			return filepath.Base(filepath.Dir(f)), nil
		}
	}
	return "", fmt.Errorf("no client of %s under internal/aws declares its API interface", service)
}

// write writes the kind's files and its lines in the lists, and returns
// every path it wrote or changed.
func (s *scaffold) write(root string) ([]string, error) {
	files := []struct{ template, path string }{
		{"types.go.tmpl", filepath.Join("apis", s.GroupShort, "v1alpha1", s.Lower+"_types.go")},
		{"controller.go.tmpl", filepath.Join("internal", "kinds", s.GroupShort, s.Lower, "controller.go")},
		{"conformance_test.go.tmpl", filepath.Join("internal", "kinds", s.GroupShort, s.Lower, "conformance_test.go")},
		{"example.yaml.tmpl", filepath.Join("examples", s.GroupShort, s.Lower+".yaml")},
		{"emulator.go.tmpl", filepath.Join("test", "emulator", s.Lower+".go")},
		{"workload.go.tmpl", filepath.Join("test", "workload", s.Lower+".go")},
	}
	newGroup := false
	if _, err := os.Stat(filepath.Join(root, "apis", s.GroupShort, "v1alpha1", "groupversion_info.go")); errors.Is(err, os.ErrNotExist) {
		newGroup = true
		files = append(files, struct{ template, path string }{"groupversion_info.go.tmpl", filepath.Join("apis", s.GroupShort, "v1alpha1", "groupversion_info.go")})
	}
	written := make([]string, 0, len(files)+4)
	for _, f := range files {
		b, err := s.render(f.template)
		if err != nil {
			return nil, err
		}
		if err := writeNew(filepath.Join(root, f.path), b); err != nil {
			return nil, err
		}
		written = append(written, f.path)
	}
	mapping, err := s.render("mapping.md.tmpl")
	if err != nil {
		return nil, err
	}
	edits := []struct {
		path, after, line string
	}{
		{filepath.Join("internal", "provider", "kinds.go"), "", "\t" + s.Lower + ".Kind,\n"},
		{filepath.Join("internal", "aws", s.ClientDir, s.ClientDir+".go"), "type API interface {\n", s.operations()},
	}
	// The kind's import in the list of kinds, beside the others.
	imports := []struct{ path, after, line string }{
		{filepath.Join("internal", "provider", "kinds.go"), "import (\n", "\t\"github.com/cloudkinds/provider-aws-services/internal/kinds/" + s.GroupShort + "/" + s.Lower + "\"\n"},
	}
	if newGroup {
		imports = append(imports,
			struct{ path, after, line string }{filepath.Join("apis", "apis.go"), "\"k8s.io/apimachinery/pkg/runtime\"\n\n", "\t" + s.GroupShort + "v1alpha1 \"github.com/cloudkinds/provider-aws-services/apis/" + s.GroupShort + "/v1alpha1\"\n"},
			struct{ path, after, line string }{filepath.Join("apis", "apis.go"), "runtime.NewSchemeBuilder(\n", "\t\t" + s.GroupShort + "v1alpha1.AddToScheme,\n"},
		)
	}
	for _, e := range append(edits, imports...) {
		if err := insert(filepath.Join(root, e.path), e.after, e.line); err != nil {
			return nil, err
		}
		written = appendOnce(written, e.path)
	}
	m := filepath.Join("docs", "api-mapping.md")
	if err := appendTo(filepath.Join(root, m), string(mapping)); err != nil {
		return nil, err
	}
	return append(written, m), nil
}

// operations are the lines of the service's API interface that the
// kind's client calls: hack/awsmodels reads them for the errors AWS's
// model lists.
func (s *scaffold) operations() string {
	var b strings.Builder
	for _, op := range []string{"Create" + s.Kind, "Describe" + s.Kind, "Delete" + s.Kind, "List" + s.Kind + "s"} {
		fmt.Fprintf(&b, "\t%[1]s(ctx context.Context, in *%[2]s.%[1]sInput, o ...func(*%[2]s.Options)) (*%[2]s.%[1]sOutput, error)\n", op, s.Service)
	}
	return b.String()
}

func (s *scaffold) render(name string) ([]byte, error) {
	t, err := template.ParseFS(templates, "templates/"+name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, s); err != nil {
		return nil, err
	}
	if strings.HasSuffix(name, ".go.tmpl") {
		out, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return out, nil
	}
	return b.Bytes(), nil
}

func writeNew(path string, b []byte) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// insert puts line into the file at path: after the first occurrence of
// after, or, when after is empty, before the line that marks where new
// kinds go ("// make kind: ...").
func insert(path, after, line string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	src := string(b)
	var i int
	switch {
	case after == "":
		if i = strings.Index(src, "\t// make kind:"); i < 0 {
			return fmt.Errorf("%s has no line \"// make kind: ...\" to add the kind before", path)
		}
	case strings.Contains(src, after):
		i = strings.Index(src, after) + len(after)
	default:
		return fmt.Errorf("%s has no %q to add %q after", path, after, strings.TrimSpace(line))
	}
	out := []byte(src[:i] + line + src[i:])
	if strings.HasSuffix(path, ".go") {
		if out, err = format.Source(out); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return os.WriteFile(path, out, 0o644)
}

func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return errors.Join(err, f.Close())
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}
