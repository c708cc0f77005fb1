package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
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

// The tests run on prism, Beam's portable local runner, which serializes
// every DoFn and element as a remote runner does.
func TestMain(m *testing.M) {
	ptest.Main(m)
}

const chat = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]}`

// edgeFiles writes inputs the fixtures lack: a .json array, a broken .json
// document, an agent session with a corrupt line, a file of no known
// format, an empty file, CRLF lines after a byte-order mark, and lines
// longer than a small --max-line-size.
func edgeFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"array.json":  "[\n" + chat + ",\n" + chat + "\n]\n",
		"broken.json": "[\n" + chat + ",\n{\"messages\": [}\n",
		"session.jsonl": `{"type":"session","id":"s1"}` + "\n" +
			`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"weather?"}]}}` + "\n" +
			"{oops\n" +
			`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"get_weather","arguments":{}}]}}` + "\n",
		"unknown.jsonl": "not json\n" + `{"dialogue":[]}` + "\n" + "[1]\n",
		"empty.jsonl":   "",
		"crlf.jsonl":    "\xEF\xBB\xBF" + "[]\r\n\r\n" + chat + "\r\n",
		// Lines 1 and 3 are over 300 bytes, line 2 is not (and not JSON).
		"long.jsonl": `{"messages":[{"role":"user","content":"` + strings.Repeat("a", 575) + `"},{"role":"assistant","content":"ok"}]}` + "\n" +
			"{oops\n" +
			`{"messages":[{"role":"user","content":"` + strings.Repeat("b", 575) + `"},{"role":"assistant","content":"ok"}]}` + "\n",
		// Line 2 builds 61 values: over a --max-record-values of 40.
		"dense.jsonl": chat + "\n" + `{"messages":[` + strings.TrimSuffix(strings.Repeat(`{"role":"user","content":"x"},`, 20), ",") + `]}` + "\n" + chat + "\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPipelineMatchesCheck runs the job over fixture files and edge cases
// and compares every finding, field for field, with what `chatlint check`
// reports for the same files through engine/runner.
func TestPipelineMatchesCheck(t *testing.T) {
	edge := edgeFiles(t)
	tests := []struct {
		name   string
		inputs []string
		packs  []string
		format string // forced, as --format does
		shards int
		// reshuffle sends every unit through a shuffle, so its encoding is
		// tested too.
		reshuffle bool
		// maxLine bounds a line, as --max-line-size does (0: the default).
		maxLine int
		// maxValues bounds a record's values, as --max-record-values does
		// (0: the default).
		maxValues int
		// wantIn are texts some finding must hold (a file, a rule), so that
		// a pipeline and a runner both seeing nothing cannot pass.
		wantIn []string
	}{
		{
			name: "fixtures and edge cases, built-in packs",
			inputs: []string{
				"../../fixtures/sample/*.jsonl",
				"../../fixtures/sample/train.jsonl", // matched twice, read once
				"../../policies/integrity/tests/*/bad.jsonl",
				"../../policies/integrity/tests/tool-result-*/good.jsonl",
				"../../policies/batch/tests/*/bad.jsonl",
				"../../fixtures/formats/*.json*",
				filepath.Join(edge, "*"),
			},
			shards:    3,
			reshuffle: true,
			wantIn: []string{
				// The reader's duplicate mark survives the unit's encoding.
				`"rule":"batch-custom-id-duplicate"`,
				file("../../fixtures/sample/train.jsonl"),
				file("../../policies/integrity/tests/session-id-mismatch/bad.jsonl"),
				file(filepath.Join(edge, "session.jsonl")),
				file(filepath.Join(edge, "broken.json")),
				file(filepath.Join(edge, "crlf.jsonl")),
				`"rule":"unrecognized-format"`,
			},
		},
		{
			name:   "a forced format",
			inputs: []string{"../../fixtures/sample/*.jsonl", filepath.Join(edge, "unknown.jsonl"), filepath.Join(edge, "session.jsonl")},
			format: "chat",
			wantIn: []string{file(filepath.Join(edge, "unknown.jsonl")), `"rule":"format-mismatch"`},
		},
		{
			// A line over --max-line-size is check's finding, and the rest
			// of the file is checked.
			name:    "lines over --max-line-size",
			inputs:  []string{filepath.Join(edge, "long.jsonl")},
			maxLine: 300,
			wantIn: []string{
				`"rule":"line-too-long","severity":"error","message":"the line is 654 bytes long, over the limit of 300 bytes (--max-line-size); it was skipped","file":"` + filepath.Join(edge, "long.jsonl") + `","line":1,`,
				`"rule":"jsonl-syntax","severity":"error"`,
				`over the limit of 300 bytes (--max-line-size); it was skipped","file":"` + filepath.Join(edge, "long.jsonl") + `","line":3,`,
			},
		},
		{
			name:   "a pack folder travels with the job",
			inputs: []string{"../../fixtures/sample/*.jsonl"},
			packs:  []string{"../../fixtures/packs/team"},
			wantIn: []string{`"rule":"no-empty-assistant"`},
		},
		{
			// A record over --max-record-values is check's finding, and the
			// records around it are checked.
			name:      "a record over --max-record-values",
			inputs:    []string{filepath.Join(edge, "dense.jsonl")},
			maxValues: 40,
			wantIn:    []string{`"rule":"record-too-dense","severity":"error","message":"the record holds more than 40 values`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			packs, err := LoadPacks(nil, tt.packs, false)
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Packs: packs, Format: tt.format, MaxLineSize: tt.maxLine, MaxValues: tt.maxValues}
			out := filepath.Join(t.TempDir(), "findings")
			o := Options{Inputs: tt.inputs, Output: out, Shards: tt.shards, Reshuffle: tt.reshuffle, Summary: out + ".summary.json", Config: cfg}
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, o); err != nil {
				t.Fatal(err)
			}
			if err := ptest.Run(p); err != nil {
				t.Fatalf("pipeline: %v", err)
			}

			want, wantSum := check(t, cfg, tt.inputs)
			var got []string
			for i := range max(tt.shards, 1) {
				got = append(got, readLines(t, ShardName(out, i, tt.shards))...)
			}
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ from check (-check +pipeline):\n%s", diff)
			}
			for _, text := range tt.wantIn {
				if !slices.ContainsFunc(want, func(l string) bool { return strings.Contains(l, text) }) {
					t.Errorf("no finding has %s: the inputs no longer test what they should", text)
				}
			}

			sum, err := ReadSummary(ctx, o.Summary)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantSum, sum); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
		})
	}
}

// check runs engine/runner, the pipeline of `chatlint check`, over the
// files the globs match, and returns its findings as sorted JSON lines and
// the summary the job should write.
func check(t *testing.T, cfg Config, globs []string) ([]string, Summary) {
	t.Helper()
	var paths []string
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("glob %s: %v %v", g, files, err)
		}
		paths = append(paths, files...)
	}
	files, errs := jsonl.Expand(paths) // as check does: sorted, each once
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
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Format: document.Format(cfg.Format), MaxLineSize: cfg.MaxLineSize, Document: cfg.documentOptions()}}
	var lines []string
	acc := SummaryFn{}.CreateAccumulator()
	sum, errs := r.Run(context.Background(), inputs, func(f finding.Finding) {
		lines = append(lines, marshal(f))
		acc = SummaryFn{}.AddInput(acc, Tally{Rule: f.Rule, Severity: f.Severity.String(), Findings: 1})
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	slices.Sort(lines)
	acc.Files, acc.Records = sum.Files, sum.Records
	for _, in := range sum.Inputs {
		if in.Warning != "" { // an empty input warns without a finding
			acc = SummaryFn{}.AddInput(acc, Tally{Warnings: 1})
		}
	}
	var want Summary
	if err := json.Unmarshal([]byte(SummaryFn{}.ExtractOutput(acc)), &want); err != nil {
		t.Fatal(err)
	}
	if want.Errors != sum.Errors || want.Warnings != sum.Warnings || want.Infos != sum.Infos {
		t.Fatalf("counting the runner's findings gives %+v, the runner says %+v", want, sum)
	}
	return lines, want
}

func file(name string) string { return `"file":"` + name + `"` }

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// A clean input still gives a findings file, empty, and a summary.
func TestPipelineCleanInputWritesEmptyFindings(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "clean.jsonl")
	if err := os.WriteFile(in, []byte(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	packs, err := LoadPacks(nil, []string{"builtin:integrity"}, false)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "findings")
	o := Options{Inputs: []string{in}, Output: out, Summary: out + ".summary.json",
		Config: Config{Packs: packs, Disable: []string{"tools-shape"}}}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	if got := readLines(t, out); len(got) != 0 {
		t.Errorf("findings of a clean file: %q", got)
	}
	sum, err := ReadSummary(context.Background(), o.Summary)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Files: 1, Records: 1, Rules: []RuleCount{}}, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}
