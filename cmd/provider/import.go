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

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kingpin/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/provider/importer"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// importCommand is `provider import`: it prints observe-only manifests for
// the resources of an account and region that no object of the cluster
// manages (README, "Importing existing resources").
type importCommand struct {
	*kingpin.CmdClause
	region, endpoint, kubeconfig, claimsNamespace *string
	namespace, configKind, configName             *string
	quotas                                        *[]string
	share                                         *float64
	workers                                       *int
}

// newImportCommand adds the import command to app; it keeps within the AWS
// quotas the provider's own flags give (--aws-quota, --aws-quota-share).
func newImportCommand(app *kingpin.Application, quotas *[]string, share *float64) *importCommand {
	c := &importCommand{quotas: quotas, share: share, CmdClause: app.Command("import", "Print observe-only manifests, ready for kubectl apply, for the resources of an AWS account and region that no object of the cluster manages, of every kind of the provider. Credentials come from the AWS SDK's standard chain (environment, shared files, web identity, instance roles). What is left out, and why, goes to stderr.")}
	c.region = c.Flag("region", "The AWS region to import from; the manifests name it in spec.forProvider.region. Default: the SDK's (AWS_REGION, the shared config).").String()
	c.endpoint = c.Flag("endpoint", "An endpoint override for every service and STS (an emulator, LocalStack): exactly the spec.endpoint.url of the provider configs that reach it, whose ownership claims are that endpoint's.").String()
	c.kubeconfig = c.Flag("kubeconfig", "The kubeconfig of the cluster whose objects and claims say what is managed. Default: KUBECONFIG, ~/.kube/config, or the pod's service account in a cluster.").String()
	c.claimsNamespace = c.Flag("provider-namespace", "The namespace the provider runs in, where it keeps its ownership claims.").Default("crossplane-system").String()
	c.namespace = c.Flag("target-namespace", "The namespace of the printed objects.").Required().String()
	c.configKind = c.Flag("provider-config-kind", "The kind of the provider config the printed objects use: ProviderConfig (of --target-namespace) or ClusterProviderConfig.").Default(v1alpha1.ClusterProviderConfigKind).Enum(v1alpha1.ProviderConfigKind, v1alpha1.ClusterProviderConfigKind)
	c.configName = c.Flag("provider-config", "The name of the provider config the printed objects use.").Default("default").String()
	c.workers = c.Flag("workers", "Resources whose tags and destinations are read at once, each call within its operation's quota.").Default("4").Int()
	return c
}

// run runs the import and returns the process's exit code.
func (c *importCommand) run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	overrides, err := budget.ParseOverrides(*c.quotas)
	kingpin.FatalIfError(err, "Cannot read the AWS quotas")
	if !budget.ValidRate(*c.share) || *c.share > 1 {
		kingpin.Fatalf("--aws-quota-share %v: want a fraction above 0 and at most 1", *c.share)
	}
	opts := []func(*awsconfig.LoadOptions) error{}
	if *c.region != "" {
		opts = append(opts, awsconfig.WithRegion(*c.region))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	kingpin.FatalIfError(err, "Cannot load the AWS configuration")
	if cfg.Region == "" {
		kingpin.Fatalf("no region: set --region, or AWS_REGION")
	}
	if *c.endpoint != "" {
		cfg.BaseEndpoint = aws.String(*c.endpoint)
	}
	kube, err := c.kubeClient()
	kingpin.FatalIfError(err, "Cannot reach the cluster, whose objects and ownership claims say which resources are managed")

	res, err := importer.Run(ctx, importer.Config{
		AWS: cfg, Endpoint: *c.endpoint, Workers: *c.workers,
		Budgets: budget.New(budget.Quotas{Of: overrides, Share: *c.share}),
		Kube:    kube, ClaimsNamespace: *c.claimsNamespace,
		Manifests: importer.Options{Namespace: *c.namespace, ProviderConfigKind: *c.configKind, ProviderConfigName: *c.configName, Region: cfg.Region},
		Out:       os.Stdout, Err: os.Stderr,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "account %s, region %s\n", res.Account, cfg.Region)
	return 0
}

func (c *importCommand) kubeClient() (client.Reader, error) {
	var cfg *rest.Config
	var err error
	if *c.kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", *c.kubeconfig)
	} else {
		cfg, err = ctrl.GetConfig()
	}
	if err != nil {
		return nil, err
	}
	scheme := kruntime.NewScheme()
	return client.New(cfg, client.Options{Scheme: scheme})
}
