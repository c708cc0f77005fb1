package policy

import (
	"context"
	"testing"
)

// OPA runs on a document only when some Rego rule applies to its format and
// profile; the lookup is built for a profile only when a Rego rule that may
// read it runs under that profile (or a YAML file names it).
func TestRegoScope(t *testing.T) {
	src := `package chatlint.gate

# METADATA
# description: Fires on every chat record under p1.
# custom:
#   id: under-p1
#   severity: warning
#   profiles: [p1]
#   formats: [chat]
warn contains {"rule": "under-p1", "msg": "x"} if count(input.lookup.roles) >= 0

# METADATA
# description: A dataset rule under every profile, never evaluated per record.
# custom:
#   id: whole-file
#   severity: warning
dataset_warn contains {"rule": "whole-file", "msg": "x"} if input.records > 0
`
	p := &Pack{Name: "gate", Rego: []File{{Name: "gate.rego", Source: []byte(src)}}, Profiles: []Profile{{Name: "p1"}}}
	e, err := Compile(context.Background(), []*Pack{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format, profile string
		open            bool
	}{{"chat", "p1", true}, {"chat", "default", false}, {"proxy-log", "p1", false}, {"chat", "", false}} {
		if got := e.regoScope.open(tc.format, profileOf(tc.profile)); got != tc.open {
			t.Errorf("regoScope.open(%s, %q) = %v, want %v", tc.format, tc.profile, got, tc.open)
		}
	}
	if e.ReadsLookupUnder("default") || e.ReadsLookupUnder("") {
		t.Error("the lookup is built under the default profile, where no Rego rule runs")
	}
	if !e.ReadsLookupUnder("p1") {
		t.Error("the lookup is not built under p1, where under-p1 reads it")
	}
	// Per format: only where under-p1 applies, a chat document under p1.
	for _, tc := range []struct {
		format, profile string
		reads           bool
	}{{"chat", "p1", true}, {"proxy-log", "p1", false}, {"chat", "default", false}, {"claude-code", "p1", false}} {
		if got := e.ReadsLookupFor(tc.format, tc.profile); got != tc.reads {
			t.Errorf("ReadsLookupFor(%s, %q) = %v, want %v", tc.format, tc.profile, got, tc.reads)
		}
	}
	// A pack whose Rego declares no rule runs everywhere.
	q := &Pack{Name: "bare", Rego: []File{{Name: "bare.rego", Source: []byte("package chatlint.bare\n\nx := input.lookup\n")}}}
	e, err = Compile(context.Background(), []*Pack{q}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !e.regoScope.open("chat", "default") || !e.ReadsLookupUnder("default") || !e.ReadsLookupFor("sharegpt", "default") {
		t.Error("a pack without declared rules is not evaluated everywhere")
	}
}
