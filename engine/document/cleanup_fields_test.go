package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStopReasonAndSnakeCaseCalls: the fields the cleanup packs read. An
// assistant message's stopReason (or stop_reason) is kept as stop_reason,
// and call blocks of type tool_call and function_call are tool calls.
func TestStopReasonAndSnakeCaseCalls(t *testing.T) {
	d := one(t, PiSession, Options{},
		`{"type":"session","id":"s"}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"tool_call","id":"a","name":"f","input":{}},{"type":"function_call","id":"b","name":"g","arguments":null}],"stopReason":"aborted"}}`,
		`{"type":"message","message":{"role":"assistant","content":"x","stop_reason":"end_turn"}}`,
		`{"type":"message","message":{"role":"user","content":"x","stopReason":"ignored on other roles"}}`,
	)
	ms := asMaps(t, list(t, d, "messages"))
	var stops []any
	for _, m := range ms {
		stops = append(stops, m["stop_reason"])
	}
	if diff := cmp.Diff([]any{"aborted", "end_turn", nil}, stops); diff != "" {
		t.Errorf("stop_reason (-want +got):\n%s", diff)
	}
	calls := project(ms[0]["tool_calls"], "id", "has_input", "path")
	want := []map[string]any{
		{"id": "a", "has_input": true, "path": "/message/content/0"},
		{"id": "b", "has_input": false, "path": "/message/content/1"},
	}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}
