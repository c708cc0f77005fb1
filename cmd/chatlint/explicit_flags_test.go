package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiExplicitErrorFlagsWin: on a real pi session, a tool result's isError
// decides whether it failed. The 19 results marked isError: true are flagged;
// a read result with isError: false whose file holds {"colors": {"error":
// ...}} is not (7 false errors before the flag was read).
func TestPiExplicitErrorFlagsWin(t *testing.T) {
	needSharedData(t)
	file := filepath.Join(sharedData, "agent-sessions/pi/pi-large-session-v1.jsonl")
	out, errOut, code := chatlint(t, "", "check", "--no-config", "-o", "json", "--fail-on", "never", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Findings []struct{ Rule, Message string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for _, f := range res.Findings {
		if f.Rule != "tool-result-flagged" {
			continue
		}
		flagged++
		if !strings.HasSuffix(f.Message, "its is_error flag is true") {
			t.Errorf("flagged by its payload, not by isError: %s", f.Message)
		}
	}
	if flagged != 19 {
		t.Errorf("%d tool-result-flagged, want 19 (the results with isError: true)", flagged)
	}
}
