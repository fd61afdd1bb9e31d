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

// This file has no build tag: the storm's counting is pure, and its tests
// run with the unit tests, without a control plane, so that a change that
// makes a count unable to fail is caught by `go test ./...`.

package chaos

import (
	"slices"
	"testing"
	"time"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// afterCreateWindow is how long after a create reached AWS a SIGKILL still
// counts as landing "right after" it, provided that the provider had not
// recorded the create's result when it died (killsAfterCreate). Once AWS
// answers, the provider records the result with one write to the API server
// (the external-create-succeeded annotation, and a subscription's ARN as its
// external name): milliseconds, a few hundred under the storm's load and
// throttling. 2 s is several times that, so a kill that caught a create's
// answer in flight or its recording under way is counted; and it is well
// below the 6 s between kills and the 20 s poll, so the create is the one
// attempt the kill interrupted, not one that a stalled or earlier incarnation
// of the provider left behind long before.
const afterCreateWindow = 2 * time.Second

// A killLook is what a SIGKILL left behind: when the provider died, and the
// creates AWS had accepted shortly before, each with whether the object it
// was made for recorded its result before the kill. The provider was dead
// when the objects were read, so nothing was recorded in between.
type killLook struct {
	at      time.Time
	creates []createAtKill
}

type createAtKill struct {
	creation emulator.Creation
	object   string // kind/namespace/name of the object it was made for
	recorded bool
}

// killsAfterCreate counts the kills that landed in the window a lost create
// comes from: within afterCreateWindow after a create reached AWS, before
// the provider recorded its result. A storm whose count is 0 tested nothing
// of crash safety's hardest case, and fails.
func killsAfterCreate(kills []killLook, window time.Duration) int {
	n := 0
	for _, k := range kills {
		if slices.ContainsFunc(k.creates, func(c createAtKill) bool {
			return !c.recorded && !c.creation.Time.After(k.at) && k.at.Sub(c.creation.Time) <= window
		}) {
			n++
		}
	}
	return n
}

// duplicates counts the creations of identity (an object's AWS resource, see
// emulator.Creation.Identity) made while an earlier creation of it still
// stood, that is with no delete of it in between that the provider made for
// the object: signed with one of keys (the access keys it signs the object's
// calls with), at or after the object's deletion was asked for
// (deleteAsked; zero while the object lives).
//
// The present state of AWS cannot show a duplicate, since AWS keeps one
// resource per name (and SNS one subscription per topic, protocol and
// endpoint): a second creation needs the first resource gone, so the history
// is what tells. Only the object's own deletion is a reason for its provider
// to delete its resource; a resource deleted by anyone else, or by the
// provider while the object still wanted it, and then created again, is a
// second AWS resource for one object. For a live object every creation after
// the first is therefore a duplicate. The storm's identities are its own
// (the emulator starts empty), so every creation of one belongs to its
// object's life.
func duplicates(creations []emulator.Creation, writes []emulator.Write, identity string, keys []string, deleteAsked time.Time) int {
	type event struct {
		at       time.Time
		creation *emulator.Creation
		delete   *emulator.Write
	}
	var events []event
	for i := range creations {
		if creations[i].Identity() == identity {
			events = append(events, event{at: creations[i].Time, creation: &creations[i]})
		}
	}
	if len(events) < 2 {
		return 0
	}
	for i := range writes {
		if writes[i].IsDelete() {
			events = append(events, event{at: writes[i].Time, delete: &writes[i]})
		}
	}
	// A creation and the delete of it cannot be at the same time; creations
	// sort first where the clock did not move.
	slices.SortStableFunc(events, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		switch {
		case a.creation != nil && b.creation == nil:
			return -1
		case a.creation == nil && b.creation != nil:
			return 1
		}
		return 0
	})
	var standing *emulator.Creation
	n := 0
	for _, e := range events {
		switch {
		case e.creation != nil:
			if standing != nil {
				n++
			}
			standing = e.creation
		case standing != nil && deletes(*e.delete, *standing) && slices.Contains(keys, e.delete.AccessKey) &&
			!deleteAsked.IsZero() && !e.at.Before(deleteAsked):
			standing = nil
		}
	}
	return n
}

// deletes says whether w is a delete of the resource c created: the same
// service and region, and the name or ARN the delete names.
func deletes(w emulator.Write, c emulator.Creation) bool {
	return w.IsDelete() && w.Service == c.Service && w.Region == c.Region && w.Resource != "" && (w.Resource == c.Name || w.Resource == c.ARN)
}

func TestKillsAfterCreate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	create := func(ms int, recorded bool) createAtKill {
		return createAtKill{creation: emulator.Creation{Kind: "DeliveryStream", Name: "s", Time: at(ms)}, object: "DeliveryStream/chaos/s", recorded: recorded}
	}
	cases := map[string]struct {
		kills []killLook
		want  int
	}{
		"no kill":                    {nil, 0},
		"a kill with no create":      {[]killLook{{at: at(5000)}}, 0},
		"a create recorded in time":  {[]killLook{{at: at(5000), creates: []createAtKill{create(4900, true)}}}, 0},
		"a create too long before":   {[]killLook{{at: at(5000), creates: []createAtKill{create(2999, false)}}}, 0},
		"a create after the kill":    {[]killLook{{at: at(5000), creates: []createAtKill{create(5001, false)}}}, 0},
		"a create unrecorded":        {[]killLook{{at: at(5000), creates: []createAtKill{create(4990, false)}}}, 1},
		"at the edge of the window":  {[]killLook{{at: at(5000), creates: []createAtKill{create(3000, false)}}}, 1},
		"one kill, two creates":      {[]killLook{{at: at(5000), creates: []createAtKill{create(4990, false), create(4995, false)}}}, 1},
		"two kills, one in the gap":  {[]killLook{{at: at(5000), creates: []createAtKill{create(4990, true)}}, {at: at(9000), creates: []createAtKill{create(8999, false)}}}, 1},
		"two kills, both in the gap": {[]killLook{{at: at(5000), creates: []createAtKill{create(4990, false)}}, {at: at(9000), creates: []createAtKill{create(8999, false)}}}, 2},
	}
	for name, tc := range cases {
		if got := killsAfterCreate(tc.kills, afterCreateWindow); got != tc.want {
			t.Errorf("%s: %d kills after a create, want %d", name, got, tc.want)
		}
	}
}

func TestDuplicates(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	const (
		owner = "AKIDOWNER"
		other = "AKIDOTHER"
	)
	stream := func(s int, key string) emulator.Creation {
		return emulator.Creation{Service: "firehose", Kind: "DeliveryStream", Region: "us-east-1", Name: "s",
			ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/s", AccessKey: key, Time: at(s)}
	}
	unrelated := emulator.Creation{Service: "firehose", Kind: "DeliveryStream", Region: "us-east-1", Name: "t", AccessKey: owner, Time: at(1)}
	deleteStream := func(s int, key string) emulator.Write {
		return emulator.Write{Service: "firehose", Operation: "DeleteDeliveryStream", Region: "us-east-1", Resource: "s", AccessKey: key, Time: at(s)}
	}
	sub := func(s int, arn string) emulator.Creation {
		return emulator.Creation{Service: "sns", Kind: "Subscription", Region: "us-east-1", ARN: arn, TopicARN: "arn:aws:sns:us-east-1:000000000000:t",
			Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:000000000000:q", AccessKey: owner, Time: at(s)}
	}
	streamID := emulator.Identity("DeliveryStream", "us-east-1", "s")
	subID := emulator.Identity("Subscription", "us-east-1", "arn:aws:sns:us-east-1:000000000000:t sqs arn:aws:sqs:us-east-1:000000000000:q")
	cases := map[string]struct {
		creations   []emulator.Creation
		writes      []emulator.Write
		identity    string
		deleteAsked time.Time
		want        int
	}{
		"created once": {
			creations: []emulator.Creation{stream(1, owner), unrelated}, identity: streamID,
		},
		"never created": {
			creations: []emulator.Creation{unrelated}, identity: streamID,
		},
		// What the emulator's uniqueness hid: a second stream of one name.
		"created twice": {
			creations: []emulator.Creation{stream(1, owner), unrelated, stream(5, owner)}, identity: streamID, want: 1,
		},
		"created three times": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner), stream(9, owner)}, identity: streamID, want: 2,
		},
		// Deleted and created again while the object wanted it: the object
		// had two AWS resources.
		"re-created while the object lived": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner)}, writes: []emulator.Write{deleteStream(3, owner)}, identity: streamID, want: 1,
		},
		// The other object of a colliding pair deleted it, and the owner
		// created it again.
		"re-created after someone else's delete": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner)}, writes: []emulator.Write{deleteStream(3, other)}, identity: streamID, deleteAsked: at(2), want: 1,
		},
		// The object's own deletion, then a create of the name again: not
		// a duplicate (a leak if it stays, which the storm checks apart).
		"re-created after the object's own deletion": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner)}, writes: []emulator.Write{deleteStream(3, owner)}, identity: streamID, deleteAsked: at(2),
		},
		"deleted before the deletion was asked for": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner)}, writes: []emulator.Write{deleteStream(3, owner)}, identity: streamID, deleteAsked: at(4), want: 1,
		},
		"a delete of another name": {
			creations: []emulator.Creation{stream(1, owner), stream(5, owner)}, identity: streamID, deleteAsked: at(2), want: 1,
			writes: []emulator.Write{{Service: "firehose", Operation: "DeleteDeliveryStream", Region: "us-east-1", Resource: "t", AccessKey: owner, Time: at(3)}},
		},
		"a subscription subscribed anew": {
			creations: []emulator.Creation{sub(1, "arn:1"), sub(5, "arn:2")}, identity: subID, want: 1,
		},
		"a subscription unsubscribed for its deletion, then subscribed anew": {
			creations: []emulator.Creation{sub(1, "arn:1"), sub(5, "arn:2")}, identity: subID, deleteAsked: at(2),
			writes: []emulator.Write{{Service: "sns", Operation: "Unsubscribe", Region: "us-east-1", Resource: "arn:1", AccessKey: owner, Time: at(3)}},
		},
	}
	for name, tc := range cases {
		if got := duplicates(tc.creations, tc.writes, tc.identity, []string{owner}, tc.deleteAsked); got != tc.want {
			t.Errorf("%s: %d duplicates, want %d", name, got, tc.want)
		}
	}
}
