package lint

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/codexgen"
)

// sessionUnit is a generated session of about n entries as one unit.
func sessionUnit(f document.Format, n int) Unit {
	gen := codexgen.Rollout
	if f == document.ClaudeCode {
		gen = claudecodegen.Session
	}
	var recs []jsonl.Record
	for i, l := range gen(n) {
		raw := append(l[:len(l):len(l)], '\n')
		recs = append(recs, jsonl.Record{Line: i + 1, Data: raw[:len(l)], Raw: raw, End: "\n"})
	}
	return Unit{File: "session.jsonl", Format: f, Records: recs}
}

// defaultLinter is a Linter over the default packs, as check runs them.
func defaultLinter(t testing.TB) *Linter {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return New(eng, document.Options{})
}

// checkAllocated returns the bytes and objects check allocates on u.
func checkAllocated(t testing.TB, l *Linter, u Unit) (bytes, objects uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fs := l.Check(context.Background(), u)
	runtime.ReadMemStats(&after)
	for _, f := range fs {
		// The generators place only results flagged as errors and, in
		// Codex rollouts, outputs a developer message separates from
		// their calls: a session whose chain or pairing a rule misread
		// would show other findings.
		if f.Rule != "tool-result-flagged" && f.Rule != "tool-result-separated" {
			t.Fatalf("%s:%d: %s %s", f.File, f.Line, f.Rule, f.Message)
		}
	}
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// TestSessionCheckLinear: checking a session costs the same per entry
// whatever its length. Ten times the entries of a Claude Code session or a
// Codex rollout must allocate less than fifteen times the bytes and objects
// (a rule with a comprehension over every entry for each entry allocates a
// hundred times as much; sorts and growing slices a little more than ten).
func TestSessionCheckLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("checks sessions of 10,000 entries")
	}
	l := defaultLinter(t)
	for _, f := range []document.Format{document.ClaudeCode, document.Codex} {
		t.Run(string(f), func(t *testing.T) {
			small, large := sessionUnit(f, 1000), sessionUnit(f, 10000)
			sb, so := checkAllocated(t, l, small)
			lb, lo := checkAllocated(t, l, large)
			n := float64(len(large.Records)) / float64(len(small.Records))
			rb, ro := float64(lb)/float64(sb)/n, float64(lo)/float64(so)/n
			t.Logf("%d entries: %d B, %d objects; %d entries: %d B, %d objects; per entry %.2fx bytes, %.2fx objects",
				len(small.Records), sb, so, len(large.Records), lb, lo, rb, ro)
			if rb > 1.5 || ro > 1.5 {
				t.Errorf("per entry, %d entries allocate %.2fx the bytes and %.2fx the objects of %d entries, want at most 1.5x",
					len(large.Records), rb, ro, len(small.Records))
			}
		})
	}
}

// TestSessionCheckAllocations: checking a session allocates at most a
// bound of objects per line.
//
// A Codex rollout, 18: each line used to be decoded whole into OPA objects
// (a hash map each, payload and line) and held beside an OPA object per
// entry, and placing a finding materialized all of them again: 48 objects
// per line at 1,000 lines, 54 at 10,000. With payloads decoded without the
// members no rule reads, lines, entries and messages as views, and
// findings placed without materializing: 26 and 32, then 22 once other
// work cut allocations; with the tool calls as views too and the entries
// sharing the lines' type terms, 18; with each view one allocation with its
// members (an entry's six took two), 17; with the entries' terms carved
// from blocks, 14; with the later changes of the same round (a role index
// and shared walks per document, digests, the gate's fields), 14–16.
//
// A Claude Code session, 110: the claude-code pack's Rego ran on topdown,
// so every line, its message and every entry were OPA objects (a hash map
// each): 146 objects per line of a 3,000-line session. With the pack
// compiled to closures that read views, lines, messages, their content
// blocks and entries are views: 92.
func TestSessionCheckAllocations(t *testing.T) {
	for _, c := range []struct {
		format document.Format
		lines  int
		bound  float64
	}{
		{document.Codex, 1000, 18},
		{document.ClaudeCode, 3000, 110},
	} {
		t.Run(string(c.format), func(t *testing.T) {
			l := defaultLinter(t)
			u := sessionUnit(c.format, c.lines)
			l.Check(context.Background(), u) // compiles what the first document needs
			_, objects := checkAllocated(t, l, u)
			per := float64(objects) / float64(len(u.Records))
			t.Logf("%d lines: %d objects, %.1f per line", len(u.Records), objects, per)
			if per > c.bound {
				t.Errorf("check allocates %.1f objects per line of a %s session, want at most %v", per, c.format, c.bound)
			}
		})
	}
}

// BenchmarkSessionCheck measures check on one session of 1k and 10k
// entries, per entry: a flat cost per entry is a linear check.
func BenchmarkSessionCheck(b *testing.B) {
	l := defaultLinter(b)
	for _, f := range []document.Format{document.ClaudeCode, document.Codex} {
		for _, n := range []int{1000, 10000} {
			u := sessionUnit(f, n)
			b.Run(fmt.Sprintf("%s/%d", f, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					l.Check(context.Background(), u)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(u.Records)), "ns/entry")
			})
		}
	}
}

// TestReleaseDropsSessionLines: with Release, Check drops each line of a
// session once decoded (the rules run without the text beside the decoded
// entries) and finds what it finds without; with record hashes, which read
// the lines after the rules, it keeps them.
func TestReleaseDropsSessionLines(t *testing.T) {
	l := defaultLinter(t)
	kept := sessionUnit(document.ClaudeCode, 300)
	want := l.Check(context.Background(), kept)
	released := sessionUnit(document.ClaudeCode, 300)
	released.Release = true
	if diff := cmp.Diff(want, l.Check(context.Background(), released)); diff != "" {
		t.Errorf("findings (-kept +released):\n%s", diff)
	}
	for _, r := range released.Records {
		if r.Data != nil || r.Raw != nil {
			t.Fatalf("line %d still held after a released check", r.Line)
		}
	}
	for _, r := range kept.Records {
		if r.Data == nil {
			t.Fatalf("line %d dropped without Release", r.Line)
		}
	}
	l.HashRecords(true)
	hashed := sessionUnit(document.ClaudeCode, 300)
	hashed.Release = true
	l.Check(context.Background(), hashed)
	if hashed.Records[0].Data == nil {
		t.Error("a check hashing records dropped the lines")
	}
}

// TestCodexDetectedFirstLineKeepsViews: a check hands a rollout's builder
// its first line as detection decoded it (Unit.First, an OPA object), the
// others projected as views; the document is built as one of views all the
// same (its messages MessageValues), with the findings of a unit decoded
// line by line. Deciding on the first line alone built every message of
// every rollout the binary checks as an OPA object.
func TestCodexDetectedFirstLineKeepsViews(t *testing.T) {
	l := defaultLinter(t)
	plain := sessionUnit(document.Codex, 1000)
	detected := sessionUnit(document.Codex, 1000)
	f, first, _, ok := Detect(detected.File, detected.Records[0])
	if !ok || f != document.Codex || first == nil {
		t.Fatalf("detection of the first line: %q, %v, %v", f, first, ok)
	}
	detected.First = first
	var views []bool
	Documents(detected, l.plan(document.Codex).opts, func(d *document.Document, _ *jsonl.Record) {
		msgs := d.Value.Get(document.KeyMessages).Value.(*ast.Array)
		_, view := msgs.Elem(0).Value.(*document.MessageValue)
		views = append(views, view)
	})
	if !cmp.Equal(views, []bool{true}) {
		t.Errorf("documents with messages as MessageValues: %v, want [true]", views)
	}
	if diff := cmp.Diff(l.Check(context.Background(), plain), l.Check(context.Background(), detected)); diff != "" {
		t.Errorf("findings (-line by line +first line detected):\n%s", diff)
	}
}
