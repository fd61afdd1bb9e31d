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

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAPIMethods(t *testing.T) {
	cases := map[string]struct {
		src     string
		want    []string
		wantErr string
	}{
		"Methods": {
			src: `package x
type Client struct{}
type API interface {
	CreateThing(ctx context.Context, in *x.CreateThingInput, o ...func(*x.Options)) (*x.CreateThingOutput, error)
	DeleteThing(ctx context.Context, in *x.DeleteThingInput, o ...func(*x.Options)) (*x.DeleteThingOutput, error)
}
type Other interface{ Ignored() }`,
			want: []string{"CreateThing", "DeleteThing"},
		},
		"InAGroup": {
			src:  "package x\ntype (\n\tA int\n\tAPI interface{ Get() error }\n)",
			want: []string{"Get"},
		},
		"NoAPI":    {src: "package x\ntype Client interface{ Get() }", wantErr: "declares no API interface"},
		"NotAnAPI": {src: "package x\ntype API struct{}", wantErr: "API is not an interface"},
		"Embeds":   {src: "package x\ntype API interface{ io.Closer }", wantErr: "API embeds io.Closer"},
		"Empty":    {src: "package x\ntype API interface{}", wantErr: "API has no methods"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := apiMethods("x.go", tc.src)
			if diff := cmp.Diff(tc.wantErr, errText(err), contains()); diff != "" {
				t.Errorf("error: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

// A query model (SNS's shapes, trimmed), whose wire codes are error.code, and
// a JSON one whose wire codes are the shapes' names.
const (
	queryModel = `{
  "metadata": {"protocol": "query", "serviceId": "SNS"},
  "operations": {
    "Subscribe": {"errors": [{"shape": "NotFoundException"}, {"shape": "InternalErrorException"}, {"shape": "AuthorizationErrorException"}, {"shape": "NotFoundException"}]},
    "Quiet": {}
  },
  "shapes": {
    "NotFoundException": {"type": "structure", "exception": true,
      "error": {"code": "NotFound", "httpStatusCode": 404, "senderFault": true},
      "documentation": "<p>Indicates that the requested resource does not exist.</p>"},
    "InternalErrorException": {"type": "structure", "exception": true, "fault": true,
      "error": {"code": "InternalError", "httpStatusCode": 500},
      "documentation": "<p>Indicates an internal service error.</p>"},
    "AuthorizationErrorException": {"type": "structure", "exception": true,
      "error": {"code": "AuthorizationError", "httpStatusCode": 403, "senderFault": true}}
  }
}`
	jsonModel = `{
  "metadata": {"protocol": "json", "serviceId": "EventBridge"},
  "operations": {
    "CreateEndpoint": {"errors": [{"shape": "ResourceAlreadyExistsException"}, {"shape": "InternalException"}]},
    "Broken": {"errors": [{"shape": "Missing"}]}
  },
  "shapes": {
    "ResourceAlreadyExistsException": {"type": "structure", "exception": true,
      "error": {"code": "NotOnTheWire"},
      "documentation": "<p>The resource you are trying to create <code>already</code> exists. Another sentence.</p>"},
    "InternalException": {"type": "structure", "exception": true, "fault": true}
  }
}`
)

func TestErrorsOf(t *testing.T) {
	cases := map[string]struct {
		model   string
		op      string
		want    []modeledError
		wantErr string
	}{
		"QueryCodes": {
			model: queryModel,
			op:    "Subscribe",
			want: []modeledError{
				{Code: "AuthorizationError", Status: 403},
				{Code: "InternalError", Status: 500, Server: true, Doc: "Indicates an internal service error."},
				{Code: "NotFound", Status: 404, Doc: "Indicates that the requested resource does not exist."},
			},
		},
		"NoErrors": {model: queryModel, op: "Quiet", want: []modeledError{}},
		"JSONShapeNames": {
			model: jsonModel,
			op:    "CreateEndpoint",
			want: []modeledError{
				// No @httpError: Smithy's defaults, 500 for a server error.
				{Code: "InternalException", Status: 500, Server: true},
				{Code: "ResourceAlreadyExistsException", Status: 400, Doc: "The resource you are trying to create already exists."},
			},
		},
		"QueryCompatibleJSON": {
			model: strings.Replace(jsonModel, `"protocol": "json"`, `"protocol": "json", "awsQueryCompatible": {}`, 1),
			op:    "CreateEndpoint",
			want: []modeledError{
				{Code: "InternalException", Status: 500, Server: true},
				{Code: "NotOnTheWire", Status: 400, Doc: "The resource you are trying to create already exists."},
			},
		},
		"UnknownOperation": {model: jsonModel, op: "DeleteEndpoint", wantErr: "operation DeleteEndpoint is not in the model of EventBridge"},
		"UndefinedShape":   {model: jsonModel, op: "Broken", wantErr: "lists the error Missing, which the model does not define"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := parseModel([]byte(tc.model))
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.errorsOf(tc.op)
			if diff := cmp.Diff(tc.wantErr, errText(err), contains()); diff != "" {
				t.Errorf("error: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestFirstSentence(t *testing.T) {
	long := "<p>The request could not be fulfilled because the identity provider (IDP) that was asked to verify the incoming identity token could not be reached. Retry.</p>"
	cases := map[string]struct {
		doc  string
		want string
	}{
		"Empty":     {doc: "", want: ""},
		"HTML":      {doc: "<p>Another modification has already happened. Fetch <code>VersionId</code> again.</p>", want: "Another modification has already happened."},
		"Entities":  {doc: "<p>The credential signature isn&#39;t valid.</p>", want: "The credential signature isn't valid."},
		"NoPeriod":  {doc: "<p>This exception is thrown when a request is denied per access permissions</p>", want: "This exception is thrown when a request is denied per access permissions"},
		"Spaces":    {doc: "<p> You have exceeded a\n   limit. For example, </p>", want: "You have exceeded a limit."},
		"Shortened": {doc: long, want: "The request could not be fulfilled because the identity provider (IDP) that was asked to verify the incoming..."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := firstSentence(tc.doc)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if len([]rune(got)) > maxDoc {
				t.Errorf("%d characters, more than %d", len([]rune(got)), maxDoc)
			}
		})
	}
}

func TestBotocoreVersion(t *testing.T) {
	cases := map[string]struct {
		src  string
		want string
	}{
		"Quoted":    {src: "import os\n\n__version__ = '1.43.11'\n", want: "1.43.11"},
		"Double":    {src: "__version__ = \"1.2.3\"\n", want: "1.2.3"},
		"NotSet":    {src: "version = '1'\n", want: ""},
		"NotAtLine": {src: "x = 1  # __version__ = '9'\n", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, botocoreVersion(tc.src)); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestRender(t *testing.T) {
	src, err := render("/* License. */", "1.0.0", []string{"sns/2010-03-31"}, map[string][]modeledError{
		"SNS:Unsubscribe": {{Code: "InternalError", Status: 500, Server: true, Doc: "Indicates an internal service error."}, {Code: "NotFound", Status: 404}},
		"SNS:Subscribe":   {},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `/* License. */

// Code generated by hack/awsmodels; DO NOT EDIT.

package awserrors

// Modeled are, per operation ("ServiceID:Operation", as the SDK names them),
// the errors AWS's published model lists for it, by code. An operation whose
// model lists none has an empty list.
//
// From botocore 1.0.0's models (data/): sns/2010-03-31.
var Modeled = map[string][]ModeledError{
	"SNS:Subscribe": {}, // the model lists none
	"SNS:Unsubscribe": {
		{Code: "InternalError", Status: 500, Server: true}, // Indicates an internal service error.
		{Code: "NotFound", Status: 404},
	},
}
`
	if diff := cmp.Diff(want, string(src)); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// contains compares a wanted error text with the text of the error got: it
// is contained in it, and only "" wants no error.
func contains() cmp.Option {
	return cmp.Comparer(func(a, b string) bool {
		if a == "" || b == "" {
			return a == b
		}
		return strings.Contains(a, b) || strings.Contains(b, a)
	})
}
