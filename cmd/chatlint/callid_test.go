package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCallIDDuplicateIsReportedAtTheCall: an id issued twice by one
// assistant message is one finding at the second call, not a confusing
// tool-result-duplicate on its results (and, with one result, not silence).
func TestCallIDDuplicateIsReportedAtTheCall(t *testing.T) {
	bad := filepath.Join(repo, "policies/integrity/tests/tool-call-id-duplicate/bad.jsonl")
	out, errOut, code := chatlint(t, "", "check", "--no-config", "-o", "json", bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	var res struct {
		Findings []struct{ Rule, Path string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Path)
	}
	want := []string{"tool-call-id-duplicate /messages/1/tool_calls/1", "tool-call-id-duplicate /messages/1/tool_calls/1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
