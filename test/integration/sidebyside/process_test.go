//go:build integration

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

package sidebyside

import (
	"time"

	"github.com/cloudkinds/provider-aws-services/test/proc"
)

// A process is one run of a provider's binary, its RSS sampled from the
// moment it starts.
type process struct {
	*proc.Process
	rss *proc.Sampler
}

// start runs binary with args against the API server of kubeconfig, logging
// to the file log, and samples its RSS every 250ms.
func start(binary string, args []string, kubeconfig, log string) (*process, error) {
	p, err := proc.Start(binary, args, []string{"KUBECONFIG=" + kubeconfig}, log)
	if err != nil {
		return nil, err
	}
	return &process{Process: p, rss: proc.SampleRSS(p, 250*time.Millisecond)}, nil
}

// stop stops the sampling, then the process.
func (p *process) stop() error {
	_, _ = p.rss.Finish()
	return p.Stop()
}
