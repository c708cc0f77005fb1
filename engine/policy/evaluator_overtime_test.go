package policy

import (
	"strings"
	"testing"
	"time"
)

// TestOvertimeCountsWorkOnce: a document's work is counted when its first
// timeout runs out, not before. Within its limit it is given the rest;
// past it (the first check of the cancellation came late, on a loaded
// machine) it is cancelled, and told its whole limit, as when the limit
// was counted up front.
func TestOvertimeCountsWorkOnce(t *testing.T) {
	e := mustCompile(t, Options{RecordTimeout: 50 * time.Millisecond}, packOf(t, map[string]string{"team.rego": emptyAssistantRego}))
	long := chatDoc(t, `{"messages":[{"role":"user","content":"hi"}`+strings.Repeat(`,{"role":"assistant","content":"ok"}`, 1999)+`]}`)
	for _, tc := range []struct {
		name    string
		ran     time.Duration
		cancels bool
	}{
		{"within its limit", 60 * time.Millisecond, false},
		{"past its limit", time.Second, true},
	} {
		ev := e.NewEvaluator()
		ev.doc, ev.started, ev.limit = long, time.Now().Add(-tc.ran), ev.timeout
		if got := ev.overtime(); got != tc.cancels {
			t.Errorf("%s: overtime() = %v, want %v", tc.name, got, tc.cancels)
		}
		if ev.limit != 100*time.Millisecond {
			t.Errorf("%s: limit %s, want 100ms (two units of work)", tc.name, ev.limit)
		}
		if ev.overtime() != true {
			t.Errorf("%s: a second overtime did not cancel", tc.name)
		}
		ev.timer.Stop()
	}
}
