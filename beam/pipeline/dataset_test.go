package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/runner"
)

// Dataset rules run in the job as in check: the records of a file are
// checked wherever the runner puts them (here every unit goes through a
// shuffle), their facts are brought together per file and folded in line
// order, and the dataset findings (duplicates naming the line of the first
// copy, too few examples, mixed record types, the token summary's cost, and
// the provider profiles' file rules: a byte-order mark, blank lines, an
// empty file) are check's, line for line, under each profile.
func TestPipelineDatasetRulesMatchCheck(t *testing.T) {
	inputs := []string{
		"../../fixtures/finetune/probe.jsonl",
		"../../policies/finetune/tests/dataset-duplicate/bad.jsonl",
		"../../policies/finetune/tests/dataset-record-types-mixed/bad.jsonl",
		"../../policies/finetune/tests/dataset-too-few-examples--bedrock/bad.jsonl",
		"../../policies/finetune/tests/file-bom/bad.jsonl",
		"../../policies/finetune/tests/file-blank-line/bad.jsonl",
		"../../policies/finetune/tests/file-empty/bad.jsonl",
		"../../fixtures/sample/*.jsonl",
	}
	if _, err := os.Stat("../../../shared/data/openai-finetune"); err == nil {
		inputs = append(inputs, "../../../shared/data/openai-finetune/*.jsonl")
	}
	for _, tc := range []struct {
		profile string
		wantIn  []string
	}{
		{"openai", []string{`"rule":"dataset-duplicate"`, `"rule":"dataset-too-few-examples"`, `"rule":"dataset-record-types-mixed"`, `"rule":"dataset-token-cost"`, `"rule":"file-bom"`, `"rule":"file-blank-line"`, `"rule":"file-empty"`}},
		{"bedrock", []string{`"rule":"dataset-duplicate"`, `"rule":"dataset-too-few-examples"`, `"rule":"file-bom"`, `"rule":"file-blank-line"`, `"rule":"file-empty"`}},
		{"default", nil},
	} {
		t.Run(tc.profile, func(t *testing.T) {
			packs, err := LoadPacks(nil, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Packs: packs, Profile: tc.profile}
			out := filepath.Join(t.TempDir(), "findings")
			o := Options{Inputs: inputs, Output: out, Shards: 2, Reshuffle: true, Summary: out + ".summary.json", Config: cfg}
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, o); err != nil {
				t.Fatal(err)
			}
			if err := ptest.Run(p); err != nil {
				t.Fatalf("pipeline: %v", err)
			}
			var got []string
			for i := range 2 {
				got = append(got, readLines(t, ShardName(out, i, 2))...)
			}
			slices.Sort(got)
			want := checkWithModel(t, cfg, inputs)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ from check (-check +pipeline):\n%s", diff)
			}
			for _, text := range tc.wantIn {
				if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, text) }) {
					t.Errorf("no finding has %s", text)
				}
			}
			sum, err := ReadSummary(context.Background(), o.Summary)
			if err != nil {
				t.Fatal(err)
			}
			// The empty file is a warning of the summary without a finding,
			// as in check.
			if n := sum.Errors + sum.Warnings + sum.Infos; n != len(got)+1 {
				t.Errorf("the summary counts %d findings and warnings, the output holds %d findings and one empty file", n, len(got))
			}
		})
	}
}

// checkWithModel runs engine/runner as check does, with the model check
// picks, and returns its findings as sorted JSON lines.
func checkWithModel(t *testing.T, cfg Config, globs []string) []string {
	t.Helper()
	var paths []string
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("glob %s: %v %v", g, files, err)
		}
		paths = append(paths, files...)
	}
	files, errs := jsonl.Expand(paths)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var inputs []runner.Input
	for _, f := range files {
		inputs = append(inputs, runner.Input{Name: f, Path: f})
	}
	eng, err := cfg.engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.options(eng)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Model == nil {
		t.Fatal("the built-in packs name no default model")
	}
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Format: document.Format(cfg.Format), Document: opts}}
	var lines []string
	if _, errs := r.Run(context.Background(), inputs, func(f finding.Finding) { lines = append(lines, marshal(f)) }); len(errs) > 0 {
		t.Fatal(errs)
	}
	slices.Sort(lines)
	return lines
}
