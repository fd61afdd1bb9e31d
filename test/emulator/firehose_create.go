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

func validateStreamName(name string) *apiError {
	if !streamName.MatchString(name) {
		return errorf(400, "ValidationException", "1 validation error detected: Value '%s' at 'deliveryStreamName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", name)
	}
	return nil
}

func (s *Server) createDeliveryStream(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName                         string
		DeliveryStreamType                         *string
		DeliveryStreamEncryptionConfigurationInput *fhSSEInput
		HttpEndpointDestinationConfiguration       *fhHTTP
		KinesisStreamSourceConfiguration           *struct{ KinesisStreamARN, RoleARN string }
		Tags                                       []fhTag
		ExtendedS3DestinationConfiguration         any
		S3DestinationConfiguration                 any
		RedshiftDestinationConfiguration           any
		SplunkDestinationConfiguration             any
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if err := validateStreamName(in.DeliveryStreamName); err != nil {
		return nil, err
	}
	if _, exists := s.streams[key(req.region, in.DeliveryStreamName)]; exists {
		return nil, errorf(400, "ResourceInUseException", "Firehose %s under accountId %s already exists", in.DeliveryStreamName, s.opts.Account)
	}
	streamType := "DirectPut"
	if in.DeliveryStreamType != nil {
		streamType = *in.DeliveryStreamType
	}
	switch streamType {
	case "DirectPut":
	case "KinesisStreamAsSource":
		if in.KinesisStreamSourceConfiguration == nil {
			return nil, errorf(400, "InvalidArgumentException", "KinesisStreamSourceConfiguration is required for a KinesisStreamAsSource delivery stream.")
		}
	default:
		return nil, errorf(400, "InvalidArgumentException", "Delivery stream type %s is not supported.", streamType)
	}
	if in.S3DestinationConfiguration != nil || in.RedshiftDestinationConfiguration != nil || in.SplunkDestinationConfiguration != nil {
		return nil, errorf(400, "InvalidArgumentException", "Only HTTP endpoint and extended S3 destinations are emulated.")
	}
	if in.ExtendedS3DestinationConfiguration != nil {
		return s.createS3Stream(req, in.DeliveryStreamName, streamType, in.ExtendedS3DestinationConfiguration)
	}
	h := in.HttpEndpointDestinationConfiguration
	if h == nil {
		return nil, errorf(400, "InvalidArgumentException", "Exactly one destination configuration must be supplied.")
	}
	if err := validateHTTPDestination(h); err != nil {
		return nil, err
	}
	if len(in.Tags) > 50 {
		return nil, errorf(400, "InvalidArgumentException", "A delivery stream can have at most 50 tags at creation; %d were given.", len(in.Tags))
	}
	if len(in.Tags) > 0 && s.denied[req.accessKey+"|firehose:TagDeliveryStream"] {
		return nil, s.accessDenied(req, "firehose:TagDeliveryStream")
	}
	if err := validateSSE(in.DeliveryStreamEncryptionConfigurationInput, streamType); err != nil {
		return nil, err
	}

	now := s.opts.Now()
	d := &deliveryStream{
		name: in.DeliveryStreamName, region: req.region, streamType: streamType,
		arn:     s.arn(req.region, "firehose", "deliverystream/"+in.DeliveryStreamName),
		created: now, updated: now, version: 1, destinationID: "destinationId-000000000001",
		destination: withHTTPDefaults(*h), tags: map[string]string{},
	}
	d.destination.S3Configuration = nil
	s.rewriteHints(d.name, &d.destination)
	d.sse.State = "DISABLED"
	for _, t := range in.Tags {
		d.tags[t.Key] = deref(t.Value)
	}
	d.begin(now, "CREATING", "ACTIVE", s.opts.CreateDelay)
	if f, ok := s.streamFailures[d.name]; ok {
		delete(s.streamFailures, d.name)
		d.pendingFailure = &f
	}
	if sse := in.DeliveryStreamEncryptionConfigurationInput; sse != nil {
		d.sse.KeyType, d.sse.KeyARN = &sse.KeyType, sse.KeyARN
		d.sse.begin(now, "ENABLING", "ENABLED", s.opts.CreateDelay)
		if kf, ok := s.keyFailures[deref(sse.KeyARN)]; ok {
			f := kf.FailureDescription
			d.sse.begin(now, "ENABLING", "ENABLING_FAILED", s.opts.CreateDelay)
			d.sse.Failure = &f
			d.pendingFailure = &f
		}
	}
	s.streams[key(req.region, d.name)] = d
	s.created(req, Creation{Kind: "DeliveryStream", Name: d.name, ARN: d.arn})
	return map[string]string{"DeliveryStreamARN": d.arn}, nil
}

// createS3Stream creates a stream that delivers to S3: kept as given and
// described as Firehose describes it, for the provider to see a stream of
// another destination type. It cannot be updated here.
func (s *Server) createS3Stream(req *request, name, streamType string, dest any) (any, *apiError) {
	now := s.opts.Now()
	d := &deliveryStream{
		name: name, region: req.region, streamType: streamType,
		arn:     s.arn(req.region, "firehose", "deliverystream/"+name),
		created: now, updated: now, version: 1, destinationID: "destinationId-000000000001",
		other: map[string]any{"ExtendedS3DestinationDescription": dest, "S3DestinationDescription": dest}, tags: map[string]string{},
	}
	d.sse.State = "DISABLED"
	d.begin(now, "CREATING", "ACTIVE", s.opts.CreateDelay)
	s.streams[key(req.region, name)] = d
	s.created(req, Creation{Kind: "DeliveryStream", Name: name, ARN: d.arn})
	return map[string]string{"DeliveryStreamARN": d.arn}, nil
}

func validateHTTPDestination(h *fhHTTP) *apiError {
	if h.EndpointConfiguration == nil || h.EndpointConfiguration.Url == nil {
		return errorf(400, "InvalidArgumentException", "HttpEndpointDestinationConfiguration.EndpointConfiguration.Url is required.")
	}
	if h.S3Configuration == nil || h.S3Configuration.BucketARN == nil || h.S3Configuration.RoleARN == nil {
		return errorf(400, "InvalidArgumentException", "HttpEndpointDestinationConfiguration.S3Configuration with BucketARN and RoleARN is required.")
	}
	for _, b := range []*fhBufferingHints{h.BufferingHints, h.S3Configuration.BufferingHints} {
		if b != nil && (b.SizeInMBs == nil) != (b.IntervalInSeconds == nil) {
			return errorf(400, "InvalidArgumentException", "BufferingHints must specify both SizeInMBs and IntervalInSeconds, or neither.")
		}
	}
	return nil
}

func validateSSE(in *fhSSEInput, streamType string) *apiError {
	if in == nil {
		return nil
	}
	if streamType != "DirectPut" {
		return errorf(400, "InvalidArgumentException", "Server-side encryption can only be configured for DirectPut delivery streams.")
	}
	switch in.KeyType {
	case "AWS_OWNED_CMK":
		if in.KeyARN != nil {
			return errorf(400, "InvalidArgumentException", "KeyARN must not be specified when KeyType is AWS_OWNED_CMK.")
		}
	case "CUSTOMER_MANAGED_CMK":
		if in.KeyARN == nil {
			return errorf(400, "InvalidArgumentException", "KeyARN is required when KeyType is CUSTOMER_MANAGED_CMK.")
		}
	default:
		return errorf(400, "ValidationException", "1 validation error detected: Value '%s' at 'deliveryStreamEncryptionConfigurationInput.keyType' failed to satisfy constraint: Member must satisfy enum value set: [AWS_OWNED_CMK, CUSTOMER_MANAGED_CMK]", in.KeyType)
	}
	return nil
}
