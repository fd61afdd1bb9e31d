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

func (s *Server) deleteDeliveryStream(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName string
		AllowForceDelete   *bool
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, ok := s.streams[key(req.region, in.DeliveryStreamName)]
	if !ok {
		return nil, streamNotFound(in.DeliveryStreamName, s.opts.Account)
	}
	if d.State == "DELETING" {
		return nil, errorf(400, "ResourceInUseException", "Firehose %s under account %s is already being deleted.", d.name, s.opts.Account)
	}
	d.pendingFailure = nil
	// A stream encrypted with a customer managed key holds a grant on it,
	// which Firehose retires when it deletes the stream; when the key no
	// longer lets it (FailKey), the deletion ends in DELETING_FAILED unless
	// it is forced.
	if kf, ok := s.keyFailures[deref(d.sse.KeyARN)]; ok && d.sse.State == "ENABLED" && !deref(in.AllowForceDelete) {
		d.begin(s.opts.Now(), "DELETING", "DELETING_FAILED", s.opts.DeleteDelay)
		d.failure = &FailureDescription{Type: "RETIRE_KMS_GRANT_FAILED", Details: kf.Details}
		return struct{}{}, nil
	}
	d.failure = nil
	d.begin(s.opts.Now(), "DELETING", deleted, s.opts.DeleteDelay)
	return struct{}{}, nil
}
