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
	"regexp"
	"slices"
	"sort"
	"strconv"
	"time"
)

// Firehose shapes, with AWS's member names.
type (
	fhBufferingHints struct {
		IntervalInSeconds *int64 `json:",omitempty"`
		SizeInMBs         *int64 `json:",omitempty"`
	}
	fhLogging struct {
		Enabled       *bool   `json:",omitempty"`
		LogGroupName  *string `json:",omitempty"`
		LogStreamName *string `json:",omitempty"`
	}
	fhKMS struct {
		AWSKMSKeyARN *string `json:",omitempty"`
	}
	fhEncryption struct {
		KMSEncryptionConfig *fhKMS  `json:",omitempty"`
		NoEncryptionConfig  *string `json:",omitempty"`
	}
	fhS3 struct {
		BucketARN                *string           `json:",omitempty"`
		BufferingHints           *fhBufferingHints `json:",omitempty"`
		CloudWatchLoggingOptions *fhLogging        `json:",omitempty"`
		CompressionFormat        *string           `json:",omitempty"`
		EncryptionConfiguration  *fhEncryption     `json:",omitempty"`
		ErrorOutputPrefix        *string           `json:",omitempty"`
		Prefix                   *string           `json:",omitempty"`
		RoleARN                  *string           `json:",omitempty"`
	}
	fhEndpoint struct {
		AccessKey *string `json:",omitempty"`
		Name      *string `json:",omitempty"`
		Url       *string `json:",omitempty"`
	}
	fhAttribute struct {
		AttributeName  string
		AttributeValue string
	}
	fhRequestConfiguration struct {
		CommonAttributes []fhAttribute `json:",omitempty"`
		ContentEncoding  *string       `json:",omitempty"`
	}
	fhParameter struct {
		ParameterName  string
		ParameterValue string
	}
	fhProcessor struct {
		Parameters []fhParameter `json:",omitempty"`
		Type       string
	}
	fhProcessing struct {
		Enabled    *bool         `json:",omitempty"`
		Processors []fhProcessor `json:",omitempty"`
	}
	fhRetry struct {
		DurationInSeconds *int64 `json:",omitempty"`
	}
	fhSecrets struct {
		Enabled   *bool   `json:",omitempty"`
		RoleARN   *string `json:",omitempty"`
		SecretARN *string `json:",omitempty"`
	}
	// fhHTTP is HttpEndpointDestinationConfiguration and -Update; the
	// description has the same members but S3DestinationDescription and no
	// access key.
	fhHTTP struct {
		BufferingHints              *fhBufferingHints       `json:",omitempty"`
		CloudWatchLoggingOptions    *fhLogging              `json:",omitempty"`
		EndpointConfiguration       *fhEndpoint             `json:",omitempty"`
		ProcessingConfiguration     *fhProcessing           `json:",omitempty"`
		RequestConfiguration        *fhRequestConfiguration `json:",omitempty"`
		RetryOptions                *fhRetry                `json:",omitempty"`
		RoleARN                     *string                 `json:",omitempty"`
		S3BackupMode                *string                 `json:",omitempty"`
		S3Configuration             *fhS3                   `json:",omitempty"`
		S3Update                    *fhS3                   `json:",omitempty"`
		S3DestinationDescription    *fhS3                   `json:",omitempty"`
		SecretsManagerConfiguration *fhSecrets              `json:",omitempty"`
	}
	fhTag struct {
		Key   string
		Value *string `json:",omitempty"`
	}
	fhSSEInput struct {
		KeyARN  *string `json:",omitempty"`
		KeyType string
	}
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

// FailStreamCreation makes the next creation of the stream named name end in
// CREATING_FAILED with the given failure.
func (s *Server) FailStreamCreation(name string, f FailureDescription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streamFailures[name] = f
}

type keyFailure struct {
	FailureDescription
}

// FailKey makes every key-service operation on keyARN fail with f: a stream
// created with it ends in CREATING_FAILED, enabling or disabling encryption
// with it ends in ENABLING_FAILED or DISABLING_FAILED, and deleting a stream
// encrypted with it, unless forced, in DELETING_FAILED (its grant cannot be
// retired).
func (s *Server) FailKey(keyARN string, f FailureDescription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keyFailures[keyARN] = keyFailure{f}
}

// StreamStatus returns the status of a stream, or "" when there is none.
func (s *Server) StreamStatus(region, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	if d, ok := s.streams[key(region, name)]; ok {
		return d.State
	}
	return ""
}

// StreamAccessKey returns the access key the stream delivers with; tests use
// it to see that a rotation reached AWS.
func (s *Server) StreamAccessKey(region, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.streams[key(region, name)]; ok && d.destination.EndpointConfiguration != nil && d.destination.EndpointConfiguration.AccessKey != nil {
		return *d.destination.EndpointConfiguration.AccessKey
	}
	return ""
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

// withHTTPDefaults fills in what Firehose defaults when a stream is created.
func withHTTPDefaults(h fhHTTP) fhHTTP {
	if h.BufferingHints == nil {
		h.BufferingHints = &fhBufferingHints{SizeInMBs: ptr[int64](5), IntervalInSeconds: ptr[int64](300)}
	}
	if h.CloudWatchLoggingOptions == nil {
		h.CloudWatchLoggingOptions = &fhLogging{Enabled: ptr(false)}
	}
	if h.RequestConfiguration == nil {
		h.RequestConfiguration = &fhRequestConfiguration{}
	}
	if h.RequestConfiguration.ContentEncoding == nil {
		h.RequestConfiguration.ContentEncoding = ptr("NONE")
	}
	if h.RetryOptions == nil {
		h.RetryOptions = &fhRetry{DurationInSeconds: ptr[int64](300)}
	}
	if h.S3BackupMode == nil {
		h.S3BackupMode = ptr("FailedDataOnly")
	}
	if h.ProcessingConfiguration == nil {
		h.ProcessingConfiguration = &fhProcessing{Enabled: ptr(false)}
	}
	// Firehose answers a disabled Secrets Manager configuration when none
	// was given (terraform-provider-aws keeps secrets_manager_configuration
	// Optional+Computed for that reason).
	if h.SecretsManagerConfiguration == nil {
		h.SecretsManagerConfiguration = &fhSecrets{Enabled: ptr(false)}
	}
	withLambdaDefaults(&h)
	s3 := *h.S3Configuration
	if s3.BufferingHints == nil {
		s3.BufferingHints = &fhBufferingHints{SizeInMBs: ptr[int64](5), IntervalInSeconds: ptr[int64](300)}
	}
	if s3.CompressionFormat == nil {
		s3.CompressionFormat = ptr("UNCOMPRESSED")
	}
	if s3.EncryptionConfiguration == nil {
		s3.EncryptionConfiguration = &fhEncryption{NoEncryptionConfig: ptr("NoEncryption")}
	}
	if s3.CloudWatchLoggingOptions == nil {
		s3.CloudWatchLoggingOptions = &fhLogging{Enabled: ptr(false)}
	}
	h.S3DestinationDescription = &s3
	return h
}

func destination(id string, h fhHTTP, other map[string]any) map[string]any {
	out := map[string]any{"DestinationId": id}
	if other != nil {
		maps.Copy(out, other)
		return out
	}
	out["HttpEndpointDestinationDescription"] = h
	return out
}

// lambdaParameterOrder is the order in which Firehose returns a Lambda
// processor's parameters, whatever the request's order (seen live in
// go-to-k/cdk-real-drift#340; also the enum order of ProcessorParameterName in
// the Firehose API model).
var lambdaParameterOrder = []string{"LambdaArn", "NumberOfRetries", "RoleArn", "BufferSizeInMBs", "BufferIntervalInSeconds"}

// withLambdaDefaults adds to each Lambda processor the parameters Firehose
// adds when the request leaves them out, and orders them as Firehose does.
// The values: the API reference, ProcessorParameter ("3 for NumberOfRetries
// and 60 for the BufferIntervalInSeconds", a 1 MB buffer for destinations
// other than Splunk and Snowflake); RoleArn is the destination's role
// (terraform-provider-aws strips exactly these from Describe answers in
// delivery_stream.go, defaultProcessorParameters, to avoid perpetual diffs).
func withLambdaDefaults(h *fhHTTP) {
	if h.ProcessingConfiguration == nil {
		return
	}
	defaults := map[string]string{"NumberOfRetries": "3", "BufferSizeInMBs": "1", "BufferIntervalInSeconds": "60"}
	if h.RoleARN != nil {
		defaults["RoleArn"] = *h.RoleARN
	}
	pc := *h.ProcessingConfiguration
	pc.Processors = slices.Clone(pc.Processors)
	for i, p := range pc.Processors {
		if p.Type != "Lambda" {
			continue
		}
		given := map[string]string{}
		for _, pa := range p.Parameters {
			given[pa.ParameterName] = pa.ParameterValue
		}
		var params []fhParameter
		for _, name := range lambdaParameterOrder {
			if v, ok := given[name]; ok {
				params = append(params, fhParameter{ParameterName: name, ParameterValue: v})
			} else if v, ok := defaults[name]; ok {
				params = append(params, fhParameter{ParameterName: name, ParameterValue: v})
			}
		}
		pc.Processors[i].Parameters = params
	}
	h.ProcessingConfiguration = &pc
}

func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

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

func (s *Server) updateDestination(req *request) (any, *apiError) {
	var in struct {
		DeliveryStreamName             string
		CurrentDeliveryStreamVersionId string
		DestinationId                  string
		HttpEndpointDestinationUpdate  *fhHTTP
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	d, err := s.stream(req, in.DeliveryStreamName)
	if err != nil {
		return nil, err
	}
	if d.State != "ACTIVE" {
		return nil, errorf(400, "ResourceInUseException", "Firehose %s under account %s is in %s state; its destination can only be updated when it is ACTIVE.", d.name, s.opts.Account, d.State)
	}
	if in.DestinationId != d.destinationID {
		return nil, errorf(400, "InvalidArgumentException", "Destination %s was not found in Firehose %s.", in.DestinationId, d.name)
	}
	if in.CurrentDeliveryStreamVersionId != strconv.Itoa(d.version) {
		return nil, errorf(400, "ConcurrentModificationException", "Firehose %s under account %s has version %d, not %s: it was updated concurrently.", d.name, s.opts.Account, d.version, in.CurrentDeliveryStreamVersionId)
	}
	u := in.HttpEndpointDestinationUpdate
	if u == nil || d.other != nil {
		return nil, errorf(400, "InvalidArgumentException", "Only an HTTP endpoint destination update is emulated.")
	}
	for _, b := range []*fhBufferingHints{u.BufferingHints} {
		if b != nil && (b.SizeInMBs == nil) != (b.IntervalInSeconds == nil) {
			return nil, errorf(400, "InvalidArgumentException", "BufferingHints must specify both SizeInMBs and IntervalInSeconds, or neither.")
		}
	}
	mergeHTTP(&d.destination, u)
	withLambdaDefaults(&d.destination)
	if u.BufferingHints != nil {
		s.rewriteHints(d.name, &d.destination)
	}
	d.version++
	d.updated = s.opts.Now()
	return struct{}{}, nil
}

// mergeHTTP applies an update as Firehose does: members that are given
// replace the current ones, members that are not keep their value.
func mergeHTTP(d, u *fhHTTP) {
	if u.EndpointConfiguration != nil {
		ec := *d.EndpointConfiguration
		mergePtr(&ec.Url, u.EndpointConfiguration.Url)
		mergePtr(&ec.Name, u.EndpointConfiguration.Name)
		mergePtr(&ec.AccessKey, u.EndpointConfiguration.AccessKey)
		d.EndpointConfiguration = &ec
	}
	mergePtr(&d.BufferingHints, u.BufferingHints)
	mergePtr(&d.CloudWatchLoggingOptions, u.CloudWatchLoggingOptions)
	mergePtr(&d.ProcessingConfiguration, u.ProcessingConfiguration)
	mergePtr(&d.RequestConfiguration, u.RequestConfiguration)
	mergePtr(&d.RetryOptions, u.RetryOptions)
	mergePtr(&d.RoleARN, u.RoleARN)
	mergePtr(&d.S3BackupMode, u.S3BackupMode)
	mergePtr(&d.SecretsManagerConfiguration, u.SecretsManagerConfiguration)
	if s3 := u.S3Update; s3 != nil {
		cur := *d.S3DestinationDescription
		mergePtr(&cur.BucketARN, s3.BucketARN)
		mergePtr(&cur.BufferingHints, s3.BufferingHints)
		mergePtr(&cur.CloudWatchLoggingOptions, s3.CloudWatchLoggingOptions)
		mergePtr(&cur.CompressionFormat, s3.CompressionFormat)
		mergePtr(&cur.EncryptionConfiguration, s3.EncryptionConfiguration)
		mergePtr(&cur.ErrorOutputPrefix, s3.ErrorOutputPrefix)
		mergePtr(&cur.Prefix, s3.Prefix)
		mergePtr(&cur.RoleARN, s3.RoleARN)
		d.S3DestinationDescription = &cur
	}
}

func mergePtr[T any](dst **T, src *T) {
	if src != nil {
		*dst = src
	}
}

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

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ReplaceBufferingHints makes Firehose replace the HTTP endpoint buffering
// hints of the stream named name with what f returns, as AWS may replace
// hints with better values.
func (s *Server) ReplaceBufferingHints(name string, f func(sizeInMBs, intervalInSeconds int64) (int64, int64)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hintsRewrite[name] = f
}

func (s *Server) rewriteHints(name string, h *fhHTTP) {
	f := s.hintsRewrite[name]
	if f == nil || h.BufferingHints == nil || h.BufferingHints.SizeInMBs == nil || h.BufferingHints.IntervalInSeconds == nil {
		return
	}
	size, interval := f(*h.BufferingHints.SizeInMBs, *h.BufferingHints.IntervalInSeconds)
	h.BufferingHints = &fhBufferingHints{SizeInMBs: &size, IntervalInSeconds: &interval}
}
