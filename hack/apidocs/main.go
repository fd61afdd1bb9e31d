// Command apidocs writes the API reference of every kind, one Markdown file
// per CRD, from the generated CRDs: the field tables carry the types'
// documentation and validations, so the reference never drifts from the API.
// A managed kind's page also lists the keys of its connection Secret, from
// the keys its service's package declares (reconciler.Kind.ConnectionKeys),
// which are those its controller publishes.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

func main() {
	crds := flag.String("crds", "package/crds", "folder of CRDs")
	out := flag.String("out", "docs/api", "folder to write the reference to")
	quotas := flag.String("quotas", "docs/quotas.md", "page whose marked table of quotas to write from quota.Table")
	kindsPage := flag.String("readme", "README.md", "page whose marked table of kinds to write from the provider's kinds")
	flag.Parse()

	if err := writeQuotas(*quotas); err != nil {
		log.Fatal(err)
	}
	if err := writeKinds(*kindsPage); err != nil {
		log.Fatal(err)
	}

	files, err := filepath.Glob(filepath.Join(*crds, "*.yaml"))
	if err != nil || len(files) == 0 {
		log.Fatalf("no CRDs in %s", *crds)
	}
	if err := os.RemoveAll(*out); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	keys := map[schema.GroupKind]connection.Keys{}
	for _, r := range provider.Kinds() {
		keys[r.GroupVersionKind.GroupKind()] = r.ConnectionKeys
	}
	index := make([]string, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		crd := &extv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(b, crd); err != nil {
			log.Fatalf("%s: %v", f, err)
		}
		name := strings.ToLower(crd.Spec.Names.Kind) + ".md"
		if err := os.WriteFile(filepath.Join(*out, name), []byte(page(crd, keys[schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}])), 0o644); err != nil {
			log.Fatal(err)
		}
		index = append(index, fmt.Sprintf("| [%s](%s) | `%s/%s` | %s |", crd.Spec.Names.Kind, name, crd.Spec.Group, crd.Spec.Versions[0].Name, crd.Spec.Scope))
	}
	sort.Strings(index)
	readme := "# API reference\n\nGenerated from `package/crds` by `make generate`; do not edit.\n\n| Kind | API version | Scope |\n|---|---|---|\n" + strings.Join(index, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(*out, "README.md"), []byte(readme), 0o644); err != nil {
		log.Fatal(err)
	}
}

// page is a CRD's reference: its spec and status fields, and the keys of its
// connection Secret when it has any.
func page(crd *extv1.CustomResourceDefinition, keys connection.Keys) string {
	v := crd.Spec.Versions[0]
	root := v.Schema.OpenAPIV3Schema
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n`%s/%s`, %s. Generated from the CRD; do not edit.\n\n%s\n\n", crd.Spec.Names.Kind, crd.Spec.Group, v.Name, crd.Spec.Scope, oneLine(root.Description))
	for _, section := range []string{"spec", "status"} {
		s, ok := root.Properties[section]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n| Field | Type | Required | Description |\n|---|---|---|---|\n", section)
		walk(&b, section, s, true)
		b.WriteString("\n")
	}
	if len(keys) > 0 {
		b.WriteString("## Connection details\n\nThe keys of the Secret `spec.writeConnectionSecretToRef` names, written in the object's namespace once AWS answers them. It never holds a secret the object was given.\n\n| Key | Holds |\n|---|---|\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "| `%s` | %s |\n", k.Name, oneLine(k.Holds))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// walk writes a row per field below path, depth first in name order.
func walk(b *strings.Builder, path string, s extv1.JSONSchemaProps, required bool) {
	if path != "spec" && path != "status" {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", path, typeOf(s), yesNo(required), describe(s))
	}
	if s.Type == "array" && s.Items != nil && s.Items.Schema != nil {
		walk2(b, path+"[]", *s.Items.Schema)
		return
	}
	walk2(b, path, s)
}

func walk2(b *strings.Builder, path string, s extv1.JSONSchemaProps) {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		walk(b, path+"."+n, s.Properties[n], contains(s.Required, n))
	}
}

func typeOf(s extv1.JSONSchemaProps) string {
	switch {
	case s.Type == "array" && s.Items != nil && s.Items.Schema != nil:
		return "array of " + s.Items.Schema.Type
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return "map of " + s.AdditionalProperties.Schema.Type
	case s.Type == "":
		return "any"
	}
	return s.Type
}

func describe(s extv1.JSONSchemaProps) string {
	parts := []string{oneLine(s.Description)}
	if s.Pattern != "" {
		parts = append(parts, "Pattern `"+strings.ReplaceAll(s.Pattern, "|", `\|`)+"`.")
	}
	if len(s.Enum) > 0 {
		var vals []string
		for _, e := range s.Enum {
			vals = append(vals, "`"+strings.Trim(string(e.Raw), `"`)+"`")
		}
		parts = append(parts, "One of "+strings.Join(vals, ", ")+".")
	}
	if s.MaxItems != nil {
		parts = append(parts, fmt.Sprintf("At most %d items.", *s.MaxItems))
	}
	if s.MaxLength != nil {
		parts = append(parts, fmt.Sprintf("At most %d characters.", *s.MaxLength))
	}
	for _, r := range s.XValidations {
		parts = append(parts, "Rule: "+oneLine(r.Message)+".")
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The marks around the generated tables in hand-written pages, which
// between writes between.
const (
	quotasBegin = "<!-- The table is quota.Table's, written by make generate: do not edit. -->\n"
	quotasEnd   = "<!-- End of quota.Table. -->\n"
	kindsBegin  = "<!-- The table is the provider's kinds (internal/provider/kinds.go), written by make generate: do not edit. -->\n"
	kindsEnd    = "<!-- End of the kinds. -->\n"
	keysBegin   = "<!-- The table is the kinds' connection keys (reconciler.Kind.ConnectionKeys), written by make generate: do not edit. -->\n"
	keysEnd     = "<!-- End of the connection keys. -->\n"
)

// between writes table between the marks begin and end of the page at path.
func between(path, begin, end, table string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	page := string(b)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no marks %q and %q to write a table between", path, begin, end)
	}
	return os.WriteFile(path, []byte(page[:i]+begin+table+page[j:]), 0o644)
}

// writeKinds writes the tables of the provider's kinds and of their
// connection keys into the page at path.
func writeKinds(path string) error {
	var t strings.Builder
	t.WriteString("| Kind | API group (`v1alpha1`) | AWS service | External name |\n|---|---|---|---|\n")
	for _, k := range provider.Kinds() {
		name := "`" + strings.TrimPrefix(k.NameField, "spec.") + "`"
		if k.NameField == "" {
			name = "the ARN `" + k.Create.Name + "` returns"
		}
		fmt.Fprintf(&t, "| %s | %s | %s | %s |\n", k.GroupVersionKind.Kind, k.GroupVersionKind.Group, k.Create.Service, name)
	}
	t.WriteString("| ProviderConfig (namespaced), ClusterProviderConfig, ProviderConfigUsage | aws.services.k8s.aws | — | — |\n")
	if err := between(path, kindsBegin, kindsEnd, t.String()); err != nil {
		return err
	}
	t.Reset()
	t.WriteString("| Kind | Keys |\n|---|---|\n")
	for _, k := range provider.Kinds() {
		names := k.ConnectionKeys.Names()
		for i := range names {
			names[i] = "`" + names[i] + "`"
		}
		fmt.Fprintf(&t, "| %s | %s |\n", k.GroupVersionKind.Kind, strings.Join(names, ", "))
	}
	return between(path, keysBegin, keysEnd, t.String())
}

// writeQuotas writes quota.Table into the page at path.
func writeQuotas(path string) error {
	var t strings.Builder
	fmt.Fprintf(&t, "| service | operation | quota (calls/s per account and region) | provider's budget at %.0f %% | source |\n|---|---|---|---|---|\n", budget.DefaultShare*100)
	for _, q := range quota.Table {
		op, figure := "`"+q.Name+"`", strconv.FormatFloat(q.PerSecond, 'f', -1, 64)
		if q.Name == quota.Every {
			op = "every other"
			if alone(q.Service) {
				op = "every"
			}
		}
		if q.Assumed {
			figure += ", assumed"
		}
		fmt.Fprintf(&t, "| %s | %s | %s | %s | %s |\n", q.Service, op, figure, strconv.FormatFloat(q.PerSecond*budget.DefaultShare, 'f', -1, 64), q.Source)
	}
	return between(path, quotasBegin, quotasEnd, t.String())
}

// alone reports whether the service's only quota is its Every row.
func alone(service string) bool {
	n := 0
	for _, q := range quota.Table {
		if q.Service == service {
			n++
		}
	}
	return n == 1
}
