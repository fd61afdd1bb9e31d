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
