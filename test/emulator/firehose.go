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
	"regexp"
	"time"
)

// FailureDescription is Firehose's description of a failed operation.
type FailureDescription struct {
	Type    string
	Details string
}

type fhEncryptionState struct {
	lifecycle
	KeyARN  *string
	KeyType *string
	Failure *FailureDescription
}

type deliveryStream struct {
	lifecycle
	name, arn, region, streamType string
	created, updated              time.Time
	version                       int
	destinationID                 string
	destination                   fhHTTP
	other                         map[string]any // a destination of another type, as described
	tags                          map[string]string
	failure                       *FailureDescription
	sse                           fhEncryptionState
	pendingFailure                *FailureDescription
}

func (d *deliveryStream) settle(now time.Time) bool {
	d.sse.settle(now)
	if d.State == "CREATING" && d.pendingFailure != nil && !now.Before(d.at) {
		d.State, d.next, d.failure = "CREATING_FAILED", "", d.pendingFailure
		d.pendingFailure = nil
	}
	return d.lifecycle.settle(now)
}

var streamName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

func (s *Server) firehose(req *request) (any, *apiError) {
	switch req.operation {
	case "CreateDeliveryStream":
		return s.createDeliveryStream(req)
	case "DescribeDeliveryStream":
		return s.describeDeliveryStream(req)
	case "DeleteDeliveryStream":
		return s.deleteDeliveryStream(req)
	case "ListDeliveryStreams":
		return s.listDeliveryStreams(req)
	case "UpdateDestination":
		return s.updateDestination(req)
	case "StartDeliveryStreamEncryption", "StopDeliveryStreamEncryption":
		return s.deliveryStreamEncryption(req)
	case "TagDeliveryStream":
		return s.tagDeliveryStream(req)
	case "UntagDeliveryStream":
		return s.untagDeliveryStream(req)
	case "ListTagsForDeliveryStream":
		return s.listTagsForDeliveryStream(req)
	}
	return nil, errorf(400, "UnknownOperationException", "Operation %s is not supported.", req.operation)
}

func streamNotFound(name, account string) *apiError {
	return errorf(400, "ResourceNotFoundException", "Firehose %s under account %s not found.", name, account)
}

// stream finds a stream that reads can see.
func (s *Server) stream(req *request, name string) (*deliveryStream, *apiError) {
	d, ok := s.streams[key(req.region, name)]
	if !ok || !s.visible("firehose", d.created) {
		return nil, streamNotFound(name, s.opts.Account)
	}
	return d, nil
}

func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
