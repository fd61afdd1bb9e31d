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
	"strconv"
)

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
