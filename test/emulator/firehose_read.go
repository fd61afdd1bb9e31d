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
	"sort"
	"strconv"
)

func (s *Server) describeDeliveryStream(req *request) (any, *apiError) {
	var in struct{ DeliveryStreamName string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	dest := d.destination
	if dest.EndpointConfiguration != nil { // AWS never returns the access key
		ec := *dest.EndpointConfiguration
		ec.AccessKey = nil
		dest.EndpointConfiguration = &ec
	}
	sse := map[string]any{"Status": d.sse.State}
	if d.sse.KeyType != nil {
		sse["KeyType"] = *d.sse.KeyType
	}
	if d.sse.KeyARN != nil {
		sse["KeyARN"] = *d.sse.KeyARN
	}
	if d.sse.Failure != nil && (d.sse.State == "ENABLING_FAILED" || d.sse.State == "DISABLING_FAILED") {
		sse["FailureDescription"] = d.sse.Failure
	}
	desc := map[string]any{
		"DeliveryStreamName":                    d.name,
		"DeliveryStreamARN":                     d.arn,
		"DeliveryStreamStatus":                  d.State,
		"DeliveryStreamType":                    d.streamType,
		"VersionId":                             strconv.Itoa(d.version),
		"CreateTimestamp":                       epoch(d.created),
		"LastUpdateTimestamp":                   epoch(d.updated),
		"DeliveryStreamEncryptionConfiguration": sse,
		"Destinations":                          []map[string]any{destination(d.destinationID, dest, d.other)},
		"HasMoreDestinations":                   false,
	}
	if d.failure != nil {
		desc["FailureDescription"] = d.failure
	}
	return map[string]any{"DeliveryStreamDescription": desc}, nil
}

func (s *Server) listDeliveryStreams(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamType               *string
		Limit                            *int
		ExclusiveStartDeliveryStreamName *string
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	size, ok := firehoseListing.size(in.Limit)
	if !ok {
		return nil, errorf(400, "ValidationException", "1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value between 1 and %d", *in.Limit, firehoseListing.maxSize)
	}
	names := []string{}
	for _, d := range s.streams {
		if d.region == req.region && (in.DeliveryStreamType == nil || *in.DeliveryStreamType == d.streamType) &&
			(in.ExclusiveStartDeliveryStreamName == nil || d.name > *in.ExclusiveStartDeliveryStreamName) {
			names = append(names, d.name)
		}
	}
	sort.Strings(names)
	more := len(names) > size
	return map[string]any{"DeliveryStreamNames": names[:min(size, len(names))], "HasMoreDeliveryStreams": more}, nil
}
