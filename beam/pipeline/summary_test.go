package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The summary must not depend on how the runner splits tallies between
// partial accumulators.
func TestSummaryFn(t *testing.T) {
	tallies := []Tally{
		{Files: 1, Records: 3},
		{Rule: "tool-result-missing", Severity: "error", Findings: 1},
		{Rule: "tool-result-flagged", Severity: "warning", Findings: 1}, // downgraded
		{Rule: "tool-result-flagged", Severity: "error", Findings: 1},
		{Files: 1, Records: 0},
		{Rule: "tool-result-missing", Severity: "error", Findings: 1},
		{Rule: "note", Severity: "info", Findings: 1},
	}
	want := Summary{Files: 2, Records: 3, Errors: 3, Warnings: 1, Infos: 1, Rules: []RuleCount{
		{Rule: "note", Severity: "info", Findings: 1},
		{Rule: "tool-result-flagged", Severity: "error", Findings: 1},
		{Rule: "tool-result-flagged", Severity: "warning", Findings: 1},
		{Rule: "tool-result-missing", Severity: "error", Findings: 2},
	}}
	fn := SummaryFn{}
	for split := range len(tallies) + 1 {
		a, b := fn.CreateAccumulator(), fn.CreateAccumulator()
		for _, tl := range tallies[:split] {
			a = fn.AddInput(a, tl)
		}
		for _, tl := range tallies[split:] {
			b = fn.AddInput(b, tl)
		}
		// Both orders, from the same partials: merging must not change them.
		for _, merged := range []Summary{fn.MergeAccumulators(a, b), fn.MergeAccumulators(b, a)} {
			var got Summary
			if err := json.Unmarshal([]byte(fn.ExtractOutput(merged)), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("split at %d (-want +got):\n%s", split, diff)
			}
		}
	}
	var empty Summary
	if err := json.Unmarshal([]byte(fn.ExtractOutput(fn.CreateAccumulator())), &empty); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Rules: []RuleCount{}}, empty); diff != "" {
		t.Errorf("empty (-want +got):\n%s", diff)
	}
}

// A fixing job's summary adds what was fixed, whatever the split; a
// checking job's has no "fix" member.
func TestSummaryFnFix(t *testing.T) {
	tallies := []Tally{
		{Files: 1, Records: 4},
		{Documents: 1},
		{Documents: 1, Changed: 1, Dropped: 2},
		{Action: "tool-result-unknown-id", Actions: 2},
		{Rule: "jsonl-syntax", Severity: "warning", Findings: 1},
		{Documents: 1, Unfixed: 1},
		{Rule: "fix", Severity: "error", Findings: 1},
		{Documents: 1, Changed: 1},
		{Action: "message-repeated", Actions: 1},
		{Action: "tool-result-unknown-id", Actions: 1},
	}
	want := Summary{Files: 1, Records: 4, Errors: 1, Warnings: 1,
		Rules: []RuleCount{{Rule: "fix", Severity: "error", Findings: 1}, {Rule: "jsonl-syntax", Severity: "warning", Findings: 1}},
		Fix: FixSummary{Documents: 4, Changed: 2, Unfixed: 1, Dropped: 2,
			Actions: []ActionCount{{Rule: "message-repeated", Actions: 1}, {Rule: "tool-result-unknown-id", Actions: 3}}}}
	fn := SummaryFn{Fix: true}
	for split := range len(tallies) + 1 {
		a, b := fn.CreateAccumulator(), fn.CreateAccumulator()
		for _, tl := range tallies[:split] {
			a = fn.AddInput(a, tl)
		}
		for _, tl := range tallies[split:] {
			b = fn.AddInput(b, tl)
		}
		for _, merged := range []Summary{fn.MergeAccumulators(a, b), fn.MergeAccumulators(b, a)} {
			var got Summary
			if err := json.Unmarshal([]byte(fn.ExtractOutput(merged)), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("split at %d (-want +got):\n%s", split, diff)
			}
		}
	}
	if got := (SummaryFn{Fix: true}).ExtractOutput(Summary{}); !strings.Contains(got, `"fix":{"documents":0,"changed":0,"unfixed":0,"dropped":0,"actions":[]}`) {
		t.Errorf("an empty fixing summary: %s", got)
	}
	if got := (SummaryFn{}).ExtractOutput(Summary{Fix: FixSummary{Documents: 1}}); strings.Contains(got, `"fix"`) {
		t.Errorf("a checking summary has a fix member: %s", got)
	}
}
