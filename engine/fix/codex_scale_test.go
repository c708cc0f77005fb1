package fix

import (
	"context"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/codexgen"
)

// codexFixer is a Fixer with the default cleanup stages (openai-tools, then
// transcript), as fix runs them on a Codex rollout.
func codexFixer(t testing.TB) *Fixer {
	packs, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	stages, err := CleanupPlan(nil).Compile(func(_ int, ref string) (*policy.Engine, error) {
		for _, p := range packs {
			if "builtin:"+p.Name == ref {
				return policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
			}
		}
		t.Fatalf("no built-in pack %s", ref)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(stages, Options{})
}

func codexUnit(lines int) lint.Unit {
	var recs []jsonl.Record
	for i, l := range codexgen.Rollout(lines) {
		recs = append(recs, jsonl.Record{Line: i + 1, Data: l, End: "\n"})
	}
	return lint.Unit{File: "rollout.jsonl", Format: document.Codex, Records: recs}
}

// cpuTime is the CPU time the process has used: unlike the wall clock it
// does not grow with the machine's load.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip("getrusage:", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestFixCodexRolloutLinear: fix's cost grows linearly with the length of a
// Codex rollout whose results are separated from their calls by developer
// messages (every ninth turn, as a compacted rollout has them). The
// openai-tools pack looked for the end of each call's run of results by
// scanning to the end of the session, and found the issuer, the rank and the
// calls of each id by scanning every call: a 3,000-line rollout took 17 s
// and hit the 5 s rule timeout. Four times the lines must cost less than
// eight times the CPU (quadratic: sixteen).
func TestFixCodexRolloutLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures fix on long rollouts")
	}
	f := codexFixer(t)
	ctx := context.Background()
	run := func(lines int) time.Duration {
		u := codexUnit(lines)
		start := cpuTime(t)
		got := f.Fix(ctx, u)
		took := cpuTime(t) - start
		moved := 0
		if got.Outcome != nil {
			for _, a := range got.Outcome.Applied {
				if a.Rule == "tool-result-misplaced" {
					moved++
				}
			}
		}
		if moved == 0 || len(got.Notes) > 0 {
			t.Fatalf("%d lines: %d results moved, notes %v", lines, moved, got.Notes)
		}
		return took
	}
	run(200) // compile the queries before measuring
	small, large := run(750), run(3000)
	t.Logf("750 lines: %v CPU; 3000 lines: %v CPU", small, large)
	if large > 8*small {
		t.Errorf("4x the lines cost %.1fx the CPU (%v, then %v): not linear", float64(large)/float64(small), small, large)
	}
}

// TestCodexGenerator: the generated rollout is a Codex rollout of the
// length asked, with the failures and the separated results it promises.
func TestCodexGenerator(t *testing.T) {
	lines := codexgen.Rollout(3000)
	if len(lines) < 3000 || len(lines) > 3020 {
		t.Fatalf("%d lines, want about 3000", len(lines))
	}
	text := string(jsonlJoin(lines))
	for _, want := range []string{`"type":"session_meta"`, `"role":"developer"`, `"exit_code":1`, `Exit code: 1`, `Process exited with code 1`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %s in the rollout", want)
		}
	}
}

func jsonlJoin(lines [][]byte) []byte {
	var out []byte
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	return out
}

// TestFixCodexRolloutWorkConstant: fix's work on a Codex rollout grows
// with its length only through the size of each step, not through their
// number: the documents built and the pack evaluations are the same at
// 2,000 and 16,000 lines, and so are the bytes allocated per line, within
// a small factor. Fix built the document again before each evaluation and
// evaluated every stage again on records none had changed (five builds
// and five evaluations where two and three do).
func TestFixCodexRolloutWorkConstant(t *testing.T) {
	if testing.Short() {
		t.Skip("fixes long rollouts")
	}
	f := codexFixer(t)
	ctx := context.Background()
	type work struct{ builds, evals, passes int }
	run := func(lines int) (work, float64) {
		u := codexUnit(lines)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := f.Fix(ctx, u)
		runtime.ReadMemStats(&after)
		if got.Outcome == nil || len(got.Notes) > 0 {
			t.Fatalf("%d lines: not fixed: %v", lines, got.Notes)
		}
		o := got.Outcome
		return work{o.builds, o.evals, o.Passes}, float64(after.TotalAlloc-before.TotalAlloc) / float64(lines)
	}
	run(200) // compile the queries before measuring
	small, smallBytes := run(2000)
	large, largeBytes := run(16000)
	t.Logf("2,000 lines: %+v, %.0f B/line; 16,000 lines: %+v, %.0f B/line", small, smallBytes, large, largeBytes)
	want := work{builds: 2, evals: 3, passes: 1}
	if small != want || large != want {
		t.Errorf("work at 2,000 lines %+v, at 16,000 %+v; want %+v at both", small, large, want)
	}
	if largeBytes > 1.5*smallBytes {
		t.Errorf("16,000 lines allocate %.0f B a line, 2,000 lines %.0f: %.2fx, want <= 1.5x", largeBytes, smallBytes, largeBytes/smallBytes)
	}
}
