//go:build generate

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

// Remove generated files first so that types deleted from the sources leave
// nothing behind.
//go:generate rm -rf ../package/crds
//go:generate find . -name zz_generated*.go -delete

// Deepcopy methods and CRDs.
//go:generate go tool -modfile=../hack/tools/go.mod controller-gen object:headerFile=../hack/boilerplate.go.txt paths=./... crd:crdVersions=v1,allowDangerousTypes=true output:artifacts:config=../package/crds

// Managed resource, provider config and usage method sets.
//go:generate go tool -modfile=../hack/tools/go.mod angryjet generate-methodsets --header-file=../hack/boilerplate.go.txt ./...

package apis
