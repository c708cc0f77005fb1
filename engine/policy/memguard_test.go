package policy

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRuleMemoryBound: a rule that builds a huge array is stopped when the
// heap passes the bound, long before the time limit, and the error names
// it; the rule beside it and the next document are unaffected. Without the
// watchdog the array grew to gigabytes until the timeout.
func TestRuleMemoryBound(t *testing.T) {
	hostile := `package chatlint.hostile

# METADATA
# description: Builds an array of a hundred million numbers.
# custom:
#   id: huge-array
deny contains {"rule": "huge-array", "msg": "big"} if {
	input.messages[0].text == "big"
	count(numbers.range(1, 100000000)) > 0
}

# METADATA
# description: Builds a string of a gigabyte.
# custom:
#   id: huge-string
deny contains {"rule": "huge-string", "msg": "big"} if {
	input.messages[0].text == "long"
	s := concat("", [x | some i in numbers.range(1, 30); x := "0123456789abcdef"])
	t := concat("", [y | some j in numbers.range(1, 4000000); y := s])
	count(t) > 0
}

# METADATA
# description: Always fires.
# custom:
#   id: quick
deny contains {"rule": "quick", "msg": "quick"} if true
`
	e := mustCompile(t, Options{RecordTimeout: time.Minute, RuleMemory: 128 << 20}, packOf(t, map[string]string{"hostile.rego": hostile}))
	ev := e.NewEvaluator()
	for _, tc := range []struct{ text, rule string }{{"big", "huge-array"}, {"long", "huge-string"}} {
		start := time.Now()
		_, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"`+tc.text+`"}]}`))
		if err == nil || !strings.Contains(err.Error(), "rule "+tc.rule+" used more than 128 MiB") {
			t.Fatalf("%s: err = %v, want the memory bound naming %s", tc.text, err, tc.rule)
		}
		t.Logf("%s: %s", tc.text, time.Since(start))
		if d := time.Since(start); d > 30*time.Second {
			t.Fatalf("%s: stopped after %s", tc.text, d)
		}
	}
	hits, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"fine"}]}`))
	if err != nil || len(hits) != 1 || hits[0].Rule != "quick" {
		t.Fatalf("after the bound: hits %v, err %v; want one quick hit", hits, err)
	}
}

// The bound is on what the rules allocate, not on the heap that holds the
// document: a process already holding more than the limit (a big valid
// session, here a 96 MiB ballast against a 64 MiB limit) still checks a
// document whose rules allocate
// little. Before, the whole heap was compared with the limit and such a
// document was reported as a rule using more than the limit.
func TestRuleMemoryBoundIsTheRulesGrowth(t *testing.T) {
	rules := `package chatlint.team

# METADATA
# description: Fires after some work that keeps little (the watchdog samples it meanwhile).
# custom:
#   id: quick
deny contains {"rule": "quick", "msg": "quick"} if {
	input.messages[0].text == "fine"
	every i in numbers.range(1, 20000) {
		i > 0
	}
}
`
	e := mustCompile(t, Options{RecordTimeout: time.Minute, RuleMemory: 64 << 20}, packOf(t, map[string]string{"team.rego": rules}))
	ev := e.NewEvaluator()
	ballast := make([]byte, 96<<20)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	for range 3 {
		hits, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"fine"}]}`))
		if err != nil || len(hits) != 1 || hits[0].Rule != "quick" {
			t.Fatalf("with 96 MiB held: hits %v, err %v; want one quick hit", hits, err)
		}
	}
	runtime.KeepAlive(ballast)
}
