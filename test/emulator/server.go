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

// Package emulator is an in-process AWS that speaks the wire protocols of the
// five services the provider manages (Firehose, SageMaker and EventBridge on
// awsJson1_1, SNS and STS on awsQuery, AgentCore Control on restJson1) with
// their semantics: asynchronous states, AWS's error codes and messages,
// version IDs, pending confirmations, failed creations and tag operations.
//
// It is test infrastructure: tests point the real aws-sdk-go-v2 clients at it
// over HTTP, inject faults, inspect and change its state and count its calls.
package emulator

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Account that owns every resource; default 000000000000.
	Account string
	// Region used when a request's signature names none; default us-east-1.
	Region string
	// Delays of the asynchronous states: how long a resource stays in its
	// CREATING, UPDATING, DELETING, ENABLING or DISABLING state. Zero makes
	// the transition happen at the next request.
	CreateDelay, UpdateDelay, DeleteDelay time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Seed seeds the random source of the probabilistic faults (ThrottleRate,
	// ErrorRate, LatencyJitter); 0 seeds it from the time. With a fixed seed
	// the same sequence of calls, made one after another, meets the same
	// faults.
	Seed uint64
}

// A Server is the emulated AWS. Its zero value is not usable; use New.
type Server struct {
	opts Options

	mu            sync.Mutex
	seq           int
	calls         map[string]int
	resourceCalls map[string]map[string]int // per resource name or ARN
	keyCalls      map[string]int            // per access key
	bySession     map[signedCall]int        // per operation, resource and access key (sts.go)
	outcomes      map[string]map[string]int
	faults        map[string]*Fault // per scope: "*", a service or "service:Operation"
	answers       []Answer          // in the order injected (answers.go)
	rng           *rand.Rand
	invisible     map[string]time.Duration
	denied        map[string]bool
	uncounted     map[string]bool    // access keys whose calls are not counted
	faultFree     map[string]bool    // access keys whose calls meet no fault
	quotas        map[string]float64 // per "service:Operation" or "service:*" (quotas.go)
	buckets       map[string]*bucket // per region and quota key
	hook          func(service, operation string)
	creationHook  func(Creation)

	streams          map[string]*deliveryStream
	models           map[string]*model
	endpointConfigs  map[string]*endpointConfig
	topics           map[string]*topic
	subscriptions    map[string]*subscription
	endpoints        map[string]*globalEndpoint
	apiKeyProviders  map[string]*apiKeyProvider
	keyFailures      map[string]keyFailure
	streamFailures   map[string]FailureDescription
	endpointFailures map[string]string
	generics         map[string]map[string]any // the generic kinds' (generic.go), by service/kind/region/name
	assumedRoles     []AssumedRole
	issued           map[string]string // access key -> assumed role ARN
	sessionOf        map[string]int    // access key -> its session in assumedRoles
	hintsRewrite     map[string]func(sizeInMBs, intervalInSeconds int64) (int64, int64)

	// The history (history.go): every creation and every write.
	creations []Creation
	writes    []Write
}

// New returns a Server.
func New(o Options) *Server {
	if o.Account == "" {
		o.Account = "000000000000"
	}
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	seed := o.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return &Server{
		opts:             o,
		calls:            map[string]int{},
		resourceCalls:    map[string]map[string]int{},
		keyCalls:         map[string]int{},
		bySession:        map[signedCall]int{},
		outcomes:         map[string]map[string]int{},
		faults:           map[string]*Fault{},
		rng:              rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		invisible:        map[string]time.Duration{},
		denied:           map[string]bool{},
		uncounted:        map[string]bool{},
		faultFree:        map[string]bool{},
		streams:          map[string]*deliveryStream{},
		generics:         map[string]map[string]any{},
		models:           map[string]*model{},
		endpointConfigs:  map[string]*endpointConfig{},
		topics:           map[string]*topic{},
		subscriptions:    map[string]*subscription{},
		endpoints:        map[string]*globalEndpoint{},
		apiKeyProviders:  map[string]*apiKeyProvider{},
		keyFailures:      map[string]keyFailure{},
		streamFailures:   map[string]FailureDescription{},
		endpointFailures: map[string]string{},
		issued:           map[string]string{},
		sessionOf:        map[string]int{},
		hintsRewrite:     map[string]func(int64, int64) (int64, int64){},
	}
}

// Account returns the account that owns the emulated resources.
func (s *Server) Account() string { return s.opts.Account }

// Deny refuses action ("firehose:TagDeliveryStream") to the principal that
// signs with accessKeyID, with AccessDeniedException.
func (s *Server) Deny(accessKeyID, action string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.denied[accessKeyID+"|"+action] = true
}

// Allow takes back a Deny, as granting the permission would.
func (s *Server) Allow(accessKeyID, action string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.denied, accessKeyID+"|"+action)
}

// FaultFree exempts the calls signed with accessKeyID from every injected
// fault and answer (InjectAnswer): a test's stand-in for someone outside the cluster reaches AWS while
// the provider's calls fail.
func (s *Server) FaultFree(accessKeyID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultFree[accessKeyID] = true
}

// Uncounted leaves the calls signed with accessKeyID out of Calls and
// CallsFor: a test changes AWS with them, as someone outside Kubernetes
// would, and counts only the provider's calls.
func (s *Server) Uncounted(accessKeyID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uncounted[accessKeyID] = true
}

// A request is one call, as the dispatcher sees it.
type request struct {
	service   string // signing name: firehose, sagemaker, events, sns, sts, bedrock-agentcore
	operation string
	region    string
	accessKey string
	http      *http.Request
	body      []byte
}

// An apiError is an AWS error response.
type apiError struct {
	code    string
	message string
	status  int
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{code: code, message: fmt.Sprintf(format, args...), status: status}
}

var credentialScope = regexp.MustCompile(`Credential=([^/,\s]+)/\d{8}/([^/]+)/([^/]+)/aws4_request`)

// ServeHTTP answers one AWS call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_emulator/") {
		s.serveControl(w, r)
		return
	}
	req, proto, err := s.parse(r)
	if err != nil {
		proto.writeError(w, req, err)
		return
	}
	f, lose := s.fault(req)
	if f != nil {
		proto.writeError(w, req, f)
		return
	}
	out, hook, aerr := s.dispatch(req)
	if hook != nil {
		// The operation happened; its answer has not left yet.
		hook()
	}
	switch {
	case lose == dropAnswer:
		proto.writeError(w, req, internalFailure())
	case lose == dropConnection:
		ResetConnection(w)
	case aerr != nil:
		proto.writeError(w, req, aerr)
	default:
		proto.writeResult(w, req, out)
	}
}

// An answerLoss is how a fault loses the answer of a call that ran (Fault).
type answerLoss int

const (
	keepAnswer answerLoss = iota
	dropAnswer
	dropConnection
)

// parse identifies the protocol, service and operation of a request and
// checks that it is signed with SigV4, as AWS requires.
func (s *Server) parse(r *http.Request) (*request, protocol, *apiError) {
	body, err := readBody(r)
	req := &request{http: r, body: body, region: s.opts.Region}
	proto := protocolOf(r)
	if err != nil {
		return req, proto, errorf(400, "SerializationException", "cannot read the request body")
	}
	req.service, req.operation = proto.operation(r, body)

	auth := r.Header.Get("Authorization")
	if auth == "" && proto == queryProtocol && queryAction(body) == "AssumeRoleWithWebIdentity" {
		// The one call AWS takes unsigned: the token is the credential.
		req.service, req.operation = "sts", "AssumeRoleWithWebIdentity"
		return req, proto, nil
	}
	m := credentialScope.FindStringSubmatch(auth)
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 ") || m == nil || !strings.Contains(auth, "Signature=") {
		return req, proto, errorf(403, "MissingAuthenticationTokenException", "Missing Authentication Token")
	}
	req.accessKey, req.region = m[1], m[2]
	if proto == queryProtocol {
		req.service = m[3] // SNS and STS share the protocol; the scope tells them apart.
		req.operation = queryAction(body)
	}
	if req.operation == "" {
		return req, proto, errorf(400, "UnknownOperationException", "The operation is not supported by this service.")
	}
	return req, proto, nil
}

// dispatch runs the operation under the server's lock, after the resources'
// asynchronous states have moved on to the present, counts its outcome and
// returns the hooks to run when it succeeded (SetCallHook, SetCreationHook),
// as one function, or nil when there are none to run.
func (s *Server) dispatch(req *request) (any, func(), *apiError) {
	handlers := map[string]func(*request) (any, *apiError){
		"firehose":          s.firehose,
		"sagemaker":         s.sagemaker,
		"events":            s.eventbridge,
		"sns":               s.sns,
		"sts":               s.sts,
		"bedrock-agentcore": s.agentcore,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := req.service + ":" + req.operation
	creations := len(s.creations)
	out, err := func() (any, *apiError) {
		h, ok := handlers[req.service]
		if g, generic := genericOf(req.service, req.operation); generic {
			own := h
			h, ok = func(req *request) (any, *apiError) {
				if own != nil {
					if out, err := own(req); err == nil || err.code != unknownOperation {
						return out, err
					}
				}
				return s.generic(req, g)
			}, true
		}
		if !ok {
			return nil, errorf(400, "UnknownOperationException", "The service %q is not emulated.", req.service)
		}
		s.settle()
		if s.denied[req.accessKey+"|"+name] {
			return nil, s.accessDenied(req, name)
		}
		return h(req)
	}()
	if err != nil {
		s.outcome(name, OutcomeRefused)
		return nil, nil, err
	}
	s.outcome(name, OutcomeOK)
	s.wrote(req)
	hook, creationHook := s.hook, s.creationHook
	var created *Creation
	if creationHook != nil && len(s.creations) > creations {
		c := s.creations[len(s.creations)-1]
		created = &c
	}
	if hook == nil && created == nil {
		return out, nil, nil
	}
	return out, func() {
		if hook != nil {
			hook(req.service, req.operation)
		}
		if created != nil {
			creationHook(*created)
		}
	}, nil
}

func (s *Server) accessDenied(req *request, action string) *apiError {
	return errorf(400, "AccessDeniedException", "User: arn:aws:iam::%s:user/%s is not authorized to perform: %s", s.opts.Account, req.accessKey, action)
}

func (s *Server) nextID() int {
	s.seq++
	return s.seq
}

func (s *Server) arn(region, service, resource string) string {
	return fmt.Sprintf("arn:aws:%s:%s:%s:%s", service, region, s.opts.Account, resource)
}

func key(region, name string) string { return region + "/" + name }
