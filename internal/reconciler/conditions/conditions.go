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

// Package conditions maps the asynchronous states AWS reports onto
// Crossplane's Ready condition, the same way for every kind.
package conditions

import (
	"slices"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reasons of the Ready condition beyond Crossplane's own.
const (
	ReasonUpdating            xpv2.ConditionReason = "Updating"
	ReasonFailed              xpv2.ConditionReason = "Failed"
	ReasonPendingConfirmation xpv2.ConditionReason = "PendingConfirmation"
)

// Updating says AWS is applying an update.
func Updating() xpv2.Condition {
	return notReady(ReasonUpdating, "")
}

// Failed says AWS reports the resource failed; message is AWS's reason.
func Failed(message string) xpv2.Condition {
	return notReady(ReasonFailed, message)
}

// PendingConfirmation says the resource waits for its endpoint to confirm.
func PendingConfirmation(message string) xpv2.Condition {
	return notReady(ReasonPendingConfirmation, message)
}

func notReady(reason xpv2.ConditionReason, message string) xpv2.Condition {
	return xpv2.Condition{Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: reason, Message: message, LastTransitionTime: metav1.Now()}
}

// A StateMap lists which AWS states of a kind mean what.
type StateMap struct {
	Available, Creating, Updating, Deleting, Failed []string
}

// Condition returns the Ready condition of an AWS state; reason is AWS's
// explanation, shown for a failed state.
func (m StateMap) Condition(state, reason string) xpv2.Condition {
	switch {
	case slices.Contains(m.Available, state):
		return xpv2.Available()
	case slices.Contains(m.Creating, state):
		return xpv2.Creating()
	case slices.Contains(m.Updating, state):
		return Updating()
	case slices.Contains(m.Deleting, state):
		return xpv2.Deleting()
	case slices.Contains(m.Failed, state):
		if reason == "" {
			reason = state
		} else {
			reason = state + ": " + reason
		}
		return Failed(reason)
	}
	return xpv2.Unavailable().WithMessage("unknown state " + state)
}

// InProgress reports whether the resource waits on AWS (creating, updating,
// deleting or pending confirmation), so that it is checked again sooner
// than at the next poll.
func InProgress(mg resource.Managed) bool {
	return awsAtWork(mg) || mg.GetCondition(xpv2.TypeReady).Reason == ReasonPendingConfirmation
}

// awsAtWork reports whether AWS is creating, updating or deleting the
// resource: work that ends by itself, soon.
func awsAtWork(mg resource.Managed) bool {
	switch mg.GetCondition(xpv2.TypeReady).Reason {
	case xpv2.ReasonCreating, xpv2.ReasonDeleting, ReasonUpdating:
		return true
	}
	return false
}

// Moving reports whether a reconcile of mg acts on something that is on its
// way: a new object, a spec not yet synced, a deletion, a resource AWS is
// creating, updating or deleting. Such work goes before periodic polls.
// Anything else is paced as a poll: a settled resource, and one that is not
// settled but is not on its way either: refused, waiting days for its
// endpoint to confirm, failed on AWS, or failing at the spec it has.
func Moving(mg resource.Managed) bool {
	if mg.GetDeletionTimestamp() != nil {
		return true
	}
	synced := mg.GetCondition(xpv2.TypeSynced)
	switch {
	case synced.Status == corev1.ConditionUnknown, synced.ObservedGeneration != mg.GetGeneration():
		// New, or changed since it was last synced.
		return true
	case synced.Status == corev1.ConditionFalse:
		// Failing at the spec it has: the controller's backoff times it.
		return false
	}
	return awsAtWork(mg)
}

// PollInterval is a poll interval hook: resources that wait on AWS are
// checked again after as long as they have waited so far, from 1 s up to
// soon, so that a resource AWS finishes in a second or two is seen Ready
// then rather than soon after, and one that takes minutes costs no more
// Observes than a fixed soon would, plus a few; the others every pollInterval.
// A subscription pending confirmation waits on a person, maybe for days: it
// is checked after as long as it has waited too, but up to pollInterval.
func PollInterval(soon time.Duration) func(resource.Managed, time.Duration) time.Duration {
	return func(mg resource.Managed, pollInterval time.Duration) time.Duration {
		if !InProgress(mg) {
			return pollInterval
		}
		longest := pollInterval
		if awsAtWork(mg) {
			longest = min(soon, pollInterval)
		}
		waited := time.Since(mg.GetCondition(xpv2.TypeReady).LastTransitionTime.Time)
		return min(longest, max(FirstRecheck, waited))
	}
}

// FirstRecheck is how soon a resource that began to wait on AWS is observed
// again.
const FirstRecheck = time.Second
