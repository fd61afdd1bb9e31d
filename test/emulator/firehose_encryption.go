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

func (s *Server) deliveryStreamEncryption(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName                         string
		DeliveryStreamEncryptionConfigurationInput *fhSSEInput
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	if d.State != "ACTIVE" {
		return nil, errorf(400, "ResourceInUseException", "Firehose %s under account %s is in %s state.", d.name, s.opts.Account, d.State)
	}
	if d.sse.State == "ENABLING" || d.sse.State == "DISABLING" {
		return nil, errorf(400, "ResourceInUseException", "Encryption of Firehose %s is %s.", d.name, d.sse.State)
	}
	now := s.opts.Now()
	if req.operation == "StartDeliveryStreamEncryption" {
		sse := in.DeliveryStreamEncryptionConfigurationInput
		if sse == nil {
			sse = &fhSSEInput{KeyType: "AWS_OWNED_CMK"}
		}
		if err := validateSSE(sse, d.streamType); err != nil {
			return nil, err
		}
		d.sse.KeyType, d.sse.KeyARN, d.sse.Failure = &sse.KeyType, sse.KeyARN, nil
		d.sse.begin(now, "ENABLING", "ENABLED", s.opts.UpdateDelay)
		if kf, ok := s.keyFailures[deref(sse.KeyARN)]; ok {
			f := kf.FailureDescription
			d.sse.begin(now, "ENABLING", "ENABLING_FAILED", s.opts.UpdateDelay)
			d.sse.Failure = &f
		}
		return struct{}{}, nil
	}
	d.sse.Failure = nil
	d.sse.begin(now, "DISABLING", "DISABLED", s.opts.UpdateDelay)
	if kf, ok := s.keyFailures[deref(d.sse.KeyARN)]; ok {
		f := kf.FailureDescription
		d.sse.begin(now, "DISABLING", "DISABLING_FAILED", s.opts.UpdateDelay)
		d.sse.Failure = &f
	}
	return struct{}{}, nil
}
