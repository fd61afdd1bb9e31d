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

package emulator

import (
	"encoding/json"
	"net/http"
)

// serveControl answers the emulator's own endpoints under /_emulator/, for
// people and scripts using the standalone command:
//
//	GET  /_emulator/calls   call counts per operation, as JSON
//	POST /_emulator/reset   forget the call counts
//	GET  /_emulator/health  200 when the emulator serves
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/_emulator/calls":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Calls())
	case "/_emulator/reset":
		if r.Method != http.MethodPost {
			http.Error(w, "use POST", http.StatusMethodNotAllowed)
			return
		}
		s.ResetCalls()
	case "/_emulator/health":
		_, _ = w.Write([]byte("ok\n"))
	default:
		http.NotFound(w, r)
	}
}
