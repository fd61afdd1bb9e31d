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

package awsconfig

import (
	"context"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsdefaults "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/endpointcreds"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// Placeholder credentials for source None: real AWS refuses them, while an
// emulator that only checks that requests are signed accepts them.
const (
	NoneAccessKeyID     = "AKIDNOCREDENTIALS"
	noneSecretAccessKey = "none"
)

// The environment of the ambient sources, as the EKS webhooks inject it.
const (
	envRoleARN         = "AWS_ROLE_ARN"
	envWebIdentityFile = "AWS_WEB_IDENTITY_TOKEN_FILE"
	envContainerURI    = "AWS_CONTAINER_CREDENTIALS_FULL_URI"
	envContainerToken  = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"
	sessionName        = "provider-aws-services"
)

type processEnvironment struct{}

func (processEnvironment) Getenv(k string) string { return os.Getenv(k) }

func (processEnvironment) LoadDefaultConfig(ctx context.Context, region string) (aws.Config, error) {
	return awsdefaults.LoadDefaultConfig(ctx, awsdefaults.WithRegion(region))
}

// credentials returns the credential provider of a source. base carries the
// region, endpoint and HTTP client that STS calls need.
// A namespaced config (cfg.namespace set) never gets here with a source that
// takes the pod's identity (config refuses it); the check is repeated here so
// that no path from a tenant's config ever reads the pod's environment or
// files.
func (c *Cache) credentials(ctx context.Context, cfg *config, base aws.Config, secrets map[string][]byte) (aws.CredentialsProvider, error) {
	creds := cfg.spec.Credentials
	if cfg.namespace != "" {
		if err := namespacedCredentials(cfg.namespace, cfg.name, creds); err != nil {
			return nil, err
		}
	}
	switch creds.Source {
	case v1alpha1.CredentialsSourceSecret:
		sc, err := ParseSharedCredentials(secrets["spec.credentials.secretRef"], aws.ToString(creds.Profile))
		if err != nil {
			return nil, err
		}
		return credentials.NewStaticCredentialsProvider(sc.AccessKeyID, sc.SecretAccessKey, sc.SessionToken), nil

	case v1alpha1.CredentialsSourceIRSA:
		role, file := c.env.Getenv(envRoleARN), c.env.Getenv(envWebIdentityFile)
		if role == "" || file == "" {
			return nil, errors.New(envRoleARN + " and " + envWebIdentityFile + " are not set: is the provider's service account annotated with eks.amazonaws.com/role-arn?")
		}
		return webIdentity(c.stsClient(base), role, nil, stscreds.IdentityTokenFile(file)), nil

	case v1alpha1.CredentialsSourceWebIdentity:
		w := creds.WebIdentity
		if w == nil {
			return nil, errors.New("spec.credentials.webIdentity is required for source WebIdentity")
		}
		var token stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(aws.ToString(w.TokenFile))
		if t, ok := secrets["spec.credentials.webIdentity.tokenSecretRef"]; ok {
			token = staticToken(strings.TrimSpace(string(t)))
		}
		return webIdentity(c.stsClient(base), w.RoleARN, w.RoleSessionName, token), nil

	case v1alpha1.CredentialsSourcePodIdentity:
		uri, tokenFile := c.env.Getenv(envContainerURI), c.env.Getenv(envContainerToken)
		if uri == "" || tokenFile == "" {
			return nil, errors.New(envContainerURI + " and " + envContainerToken + " are not set: is the EKS Pod Identity agent installed and associated?")
		}
		return aws.NewCredentialsCache(endpointcreds.New(uri, func(o *endpointcreds.Options) {
			o.AuthorizationTokenProvider = endpointcreds.TokenProviderFunc(func() (string, error) {
				b, err := os.ReadFile(tokenFile) //nolint:gosec // the path is the agent's, from the environment
				return strings.TrimSpace(string(b)), err
			})
			if base.HTTPClient != nil {
				o.HTTPClient = base.HTTPClient
			}
		})), nil

	case v1alpha1.CredentialsSourceInjectedIdentity:
		cfg, err := c.env.LoadDefaultConfig(ctx, base.Region)
		if err != nil {
			return nil, err
		}
		return cfg.Credentials, nil

	case v1alpha1.CredentialsSourceNone:
		return credentials.NewStaticCredentialsProvider(NoneAccessKeyID, noneSecretAccessKey, ""), nil
	}
	return nil, errors.Errorf("unknown credentials source %q", creds.Source)
}

type staticToken string

func (t staticToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

func webIdentity(client *sts.Client, role string, session *string, token stscreds.IdentityTokenRetriever) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(client, role, token, func(o *stscreds.WebIdentityRoleOptions) {
		o.RoleSessionName = aws.ToString(session)
		if o.RoleSessionName == "" {
			o.RoleSessionName = sessionName
		}
	}))
}

// assumeRole assumes role with client, an STS client of the credentials
// before it.
func assumeRole(client *sts.Client, role v1alpha1.AssumeRoleOptions) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(client, role.RoleARN, func(o *stscreds.AssumeRoleOptions) {
		o.RoleSessionName = sessionName
		o.ExternalID = role.ExternalID
		for _, t := range role.Tags {
			o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)})
		}
		o.TransitiveTagKeys = role.TransitiveTagKeys
	}))
}
