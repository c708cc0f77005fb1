package pipeline

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// fixEdgeFiles writes inputs the fix fixtures lack: CRLF lines after a
// byte-order mark, a last line without a newline, a line that is not a
// JSON object before the format is known and one after, and a record a
// rule drops whole. (A file of no known format is not among them: chatlint
// fix refuses it, exit 2, where the job passes its records through.)
func fixEdgeFiles(t *testing.T) string {
	t.Helper()
	const stray = `{"id":"s1","messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c9","content":"stray"},{"role":"assistant","content":"a"}]}`
	dir := t.TempDir()
	files := map[string]string{
		"crlf.jsonl":    "\xEF\xBB\xBF" + stray + "\r\n\r\n" + chat + "\r\n",
		"no-eol.jsonl":  chat + "\n" + stray,
		"invalid.jsonl": "nope\n" + stray + "\n[1]\n" + chat + "\n",
		"first.jsonl":   "[1]\n" + stray + "\n",
		"empty.jsonl":   "",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFixMatchesChatlintFix runs the job with --fix over the fix fixtures
// (chat, contract, proxy-log and pi-session files), the integrity pack's
// bad cases and edge cases, and compares its records, rejects and counts
// with those of `chatlint fix -o DIR` on the same files, as sorted sets of
// lines: the job only loses the order of the documents.
func TestFixMatchesChatlintFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the chatlint binary")
	}
	bin := buildChatlint(t)
	edge := fixEdgeFiles(t)
	tests := []struct {
		name      string
		inputs    []string
		packs     []string
		shards    int
		reshuffle bool
		// wantUnfixed is whether some document is left as it was (chatlint
		// fix exits 1).
		wantUnfixed bool
		// wantIn are texts some rejects line must hold, so that both
		// sides dropping nothing cannot pass.
		wantIn []string
		// sessions are inputs of a per-file format: chatlint fix's output
		// of each must be one block of some output file, lines in order.
		sessions []string
	}{
		{
			name: "default packs per format, fixtures and edge cases",
			inputs: []string{
				"../../fixtures/fix/openai-*/input.jsonl",
				"../../fixtures/fix/transcript-*/input.jsonl",
				filepath.Join(edge, "*"),
			},
			shards:    3,
			reshuffle: true,
			// openai-unreadable-llamafactory: records the pack cannot read are
			// left as they were (record-unreadable).
			wantUnfixed: true,
			wantIn: []string{
				`"file":"../../fixtures/fix/openai-proxy-log/input.jsonl"`,
				`"file":"../../fixtures/fix/openai-contract/input.jsonl"`,
				`"file":"../../fixtures/fix/transcript-orphans/input.jsonl"`,
				`"file":"../../policies/integrity/tests/tool-result-orphan/bad.jsonl"`,
				`"file":"` + filepath.Join(edge, "crlf.jsonl") + `"`,
				`"file":"` + filepath.Join(edge, "no-eol.jsonl") + `"`,
			},
			sessions: []string{
				"../../fixtures/fix/transcript-orphans/input.jsonl",
				"../../fixtures/fix/transcript-out-of-order/input.jsonl",
				"../../fixtures/fix/transcript-clean-crlf/input.jsonl",
				"../../fixtures/fix/openai-proxy-log/input.jsonl",
			},
		},
		{
			name:   "two packs as stages, in order",
			inputs: []string{"../../fixtures/fix/both-packs/input.jsonl", "../../fixtures/fix/transcript-*/input.jsonl", "../../fixtures/fix/openai-duplicate/input.jsonl"},
			packs:  []string{"builtin:openai-tools", "builtin:transcript"},
			wantIn: []string{`"file":"../../fixtures/fix/both-packs/input.jsonl"`},
		},
		{
			name:        "a pack folder whose actions conflict",
			inputs:      []string{"../../fixtures/fix/conflict/input.jsonl"},
			packs:       []string{"../../fixtures/fix/conflict/pack"},
			wantUnfixed: true,
		},
	}
	// Every integrity rule's failing fixture, but the formats chatlint fix
	// refuses to rewrite (xLAM records): it exits 2 for them.
	bad, _ := filepath.Glob("../../policies/integrity/tests/*/bad.jsonl")
	bad = slices.DeleteFunc(bad, func(p string) bool { return strings.Contains(p, "/xlam-") })
	tests[0].inputs = append(tests[0].inputs, bad...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			fx, err := LoadFix(tt.packs, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := fx.Validate(ctx, Config{}); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "fixed")
			o := Options{Inputs: tt.inputs, Output: out, Shards: tt.shards, Reshuffle: tt.reshuffle, Summary: out + ".summary.json",
				Fix: fx, Rejects: out + ".rejects.jsonl", Notes: out + ".notes.jsonl"}
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, o); err != nil {
				t.Fatal(err)
			}
			if err := ptest.Run(p); err != nil {
				t.Fatalf("pipeline: %v", err)
			}
			var gotRecs, gotRejects, shards []string
			for i := range max(tt.shards, 1) {
				name := ShardName(o.Output, i, tt.shards)
				gotRecs = append(gotRecs, fileLines(t, name)...)
				shards = append(shards, mustReadFile(t, name))
				gotRejects = append(gotRejects, fileLines(t, ShardName(o.Rejects, i, tt.shards))...)
			}
			slices.Sort(gotRecs)
			slices.Sort(gotRejects)
			sum, err := ReadSummary(ctx, o.Summary)
			if err != nil {
				t.Fatal(err)
			}

			want := chatlintFix(t, bin, tt.inputs, tt.packs)
			for _, in := range tt.sessions {
				block := want.outputs[filepath.Clean(in)]
				if block == "" {
					t.Fatalf("chatlint fix wrote nothing for %s", in)
				}
				if !strings.HasSuffix(block, "\n") {
					block += "\n"
				}
				if !slices.ContainsFunc(shards, func(s string) bool { return strings.Contains(s, block) }) {
					t.Errorf("the lines of %s are not one block, in order, in the output", in)
				}
			}
			if diff := cmp.Diff(want.records, gotRecs); diff != "" {
				t.Errorf("records differ from chatlint fix (-fix +pipeline):\n%s", diff)
			}
			if diff := cmp.Diff(want.rejects, gotRejects); diff != "" {
				t.Errorf("rejects differ from chatlint fix (-fix +pipeline):\n%s", diff)
			}
			got := fixCounts{files: sum.Files, lines: sum.Records, documents: sum.Fix.Documents, changed: sum.Fix.Changed,
				unfixed: sum.Fix.Unfixed > 0, actions: map[string]int{}}
			for _, a := range sum.Fix.Actions {
				got.actions[a.Rule] = a.Actions
			}
			if diff := cmp.Diff(want.counts, got, cmp.AllowUnexported(fixCounts{})); diff != "" {
				t.Errorf("summary differs from chatlint fix's (-fix +pipeline):\n%s", diff)
			}
			if got.unfixed != tt.wantUnfixed {
				t.Errorf("unfixed documents: %v, want %v", got.unfixed, tt.wantUnfixed)
			}
			if sum.Fix.Dropped != len(gotRejects) {
				t.Errorf("summary says %d dropped, the rejects have %d lines", sum.Fix.Dropped, len(gotRejects))
			}
			for _, text := range tt.wantIn {
				if !slices.ContainsFunc(want.rejects, func(l string) bool { return strings.Contains(l, text) }) {
					t.Errorf("no reject has %s: the inputs no longer test what they should", text)
				}
			}
		})
	}
}

// fixCounts are the counts chatlint fix prints and the job's summary holds.
type fixCounts struct {
	files, lines, documents, changed int
	unfixed                          bool
	actions                          map[string]int
}

type fixResult struct {
	records, rejects []string // sorted lines
	counts           fixCounts
	outputs          map[string]string // input path -> its fixed file
}

// buildChatlint builds the chatlint command, whose fix the job must match.
func buildChatlint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chatlint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/chatlint")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/chatlint: %v\n%s", err, out)
	}
	return bin
}

var (
	fixedLine  = regexp.MustCompile(`(?m)^fixed (\d+) of (\d+) records? \((\d+) files?, (\d+) lines?, \d+ actions?\)$`)
	actionLine = regexp.MustCompile(`(?m)^  (\S+) +(\d+)$`)
)

// chatlintFix runs `chatlint fix -o DIR` over the files the globs match and
// returns every line it wrote, records and rejects apart, and its counts.
func chatlintFix(t *testing.T, bin string, globs, packs []string) fixResult {
	t.Helper()
	var paths []string
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("glob %s: %v %v", g, files, err)
		}
		paths = append(paths, files...)
	}
	dir := t.TempDir()
	args := []string{"fix", "-o", dir + "/"}
	for _, p := range packs {
		args = append(args, "--pack", p)
	}
	cmd := exec.Command(bin, append(args, paths...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := fixResult{counts: fixCounts{actions: map[string]int{}}, outputs: map[string]string{}}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		res.counts.unfixed = true
	} else if err != nil {
		t.Fatalf("chatlint fix: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	m := fixedLine.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("chatlint fix printed no summary:\n%s", stdout.String())
	}
	n := func(s string) int { i, _ := strconv.Atoi(s); return i }
	res.counts.changed, res.counts.documents, res.counts.files, res.counts.lines = n(m[1]), n(m[2]), n(m[3]), n(m[4])
	for _, m := range actionLine.FindAllStringSubmatch(stdout.String(), -1) {
		res.counts.actions[m[1]] = n(m[2])
	}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(path, jsonl.RejectsSuffix) {
			res.rejects = append(res.rejects, fileLines(t, path)...)
		} else {
			res.records = append(res.records, fileLines(t, path)...)
			rel, _ := filepath.Rel(dir, path)
			in := strings.ReplaceAll(rel, "__"+string(filepath.Separator), ".."+string(filepath.Separator))
			res.outputs[in] = mustReadFile(t, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(res.records)
	slices.Sort(res.rejects)
	return res
}

// fileLines returns the lines of a file, each without its "\n" (a "\r"
// before it stays): a last line without a newline is a line like the
// others, since the job writes documents in no order.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	s := mustReadFile(t, path)
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func mustReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
