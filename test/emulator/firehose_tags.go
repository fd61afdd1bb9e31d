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
	"maps"
	"slices"
)

func (s *Server) tagDeliveryStream(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName string
		Tags               []fhTag
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	merged := map[string]string{}
	for k, v := range d.tags {
		merged[k] = v
	}
	for _, t := range in.Tags {
		merged[t.Key] = deref(t.Value)
	}
	if len(merged) > 50 {
		return nil, errorf(400, "LimitExceededException", "Firehose %s would have %d tags; at most 50 are allowed.", d.name, len(merged))
	}
	d.tags = merged
	return struct{}{}, nil
}

func (s *Server) untagDeliveryStream(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName string
		TagKeys            []string
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	for _, k := range in.TagKeys {
		delete(d.tags, k)
	}
	return struct{}{}, nil
}

func (s *Server) listTagsForDeliveryStream(req *request) (any, *apiError) {
	var in struct{ DeliveryStreamName string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	tags := []fhTag{}
	for _, k := range slices.Sorted(maps.Keys(d.tags)) {
		tags = append(tags, fhTag{Key: k, Value: ptr(d.tags[k])})
	}
	return map[string]any{"Tags": tags, "HasMoreTags": false}, nil
}
