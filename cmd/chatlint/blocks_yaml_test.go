package main

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The block rules (tool-result-orphan, -duplicate, -flagged, -missing,
// tool-call-id-duplicate, -reused) moved from Rego
// (policies/integrity/blocks.rego) to YAML (rules/integrity/blocks.yaml).
// testdata/integrity-before is the integrity pack as it was before the move
// (its Rego and YAML files, unchanged): the built-in pack must report exactly
// the findings it reports, under both profiles, on every fixture of every
// pack, on the pairing cases the Rego unit tests had (testdata/blocks-cases.jsonl)
// and on every file of the shared sample data.
func TestIntegrityYAMLBlocksMatchRego(t *testing.T) {
	equivalence{
		pack:     "integrity",
		before:   filepath.Join("testdata", "integrity-before"),
		profiles: []string{"default", "export"},
		// Written after the move: issue 32 (aborted turns) and 37 (results
		// fix moves back, xLAM records, what fix changes: repeats, calls
		// without id, results out of call order).
		newer: map[string]bool{"tool-call-not-executed": true, "tool-result-separated": true, "xlam-answers-invalid": true, "xlam-tools-invalid": true,
			"message-repeated": true, "tool-call-missing-id": true, "tool-results-out-of-order": true},
		inputs: map[string][]string{
			"blocks-cases": {filepath.Join("testdata", "blocks-cases.jsonl")},
			"shapes-cases": {filepath.Join("testdata", "shapes-cases.jsonl")},
		},
		check: func(t *testing.T, name, profile string, now []jsonFinding) {
			if name != "blocks-cases" || profile != "default" {
				return
			}
			// line 15's call and result both have an empty id: they are
			// paired by order (document/order_ids.go), no orphan.
			want := map[string]int{
				"error tool-result-orphan": 15, "error tool-result-duplicate": 4, "error tool-call-id-duplicate": 4,
				"error tool-call-id-reused": 5, "error tool-result-flagged": 17, "warning tool-result-flagged": 3,
				"error tool-result-missing": 14, "warning tool-result-missing": 1, "error tool-calls-shape": 2,
			}
			if diff := cmp.Diff(want, ruleCounts(now, true)); diff != "" {
				t.Errorf("blocks-cases: findings by rule (-want +got):\n%s", diff)
			}
		},
	}.run(t)
}
