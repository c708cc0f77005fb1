package policy_test

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/sweep"
)

// regocOutcome is everything one evaluation gives, in the order given.
type regocOutcome struct {
	Hits []policy.Hit
	Acts []policy.Action
	Err  string
}

// regocEngines compiles packs twice: as the engine compiles them, and with
// CHATLINT_REGO_EVAL=topdown.
func regocEngines(t testing.TB, packs []*policy.Pack) (compiled, topdown *policy.Engine) {
	t.Helper()
	compiled, topdown, err := regocCompileBoth(packs)
	if err != nil {
		t.Fatal(err)
	}
	return compiled, topdown
}

func regocCompileBoth(packs []*policy.Pack) (compiled, topdown *policy.Engine, err error) {
	if compiled, err = policy.Compile(context.Background(), packs, policy.Options{}); err != nil {
		return nil, nil, err
	}
	os.Setenv("CHATLINT_REGO_EVAL", "topdown")
	defer os.Unsetenv("CHATLINT_REGO_EVAL")
	if topdown, err = policy.Compile(context.Background(), packs, policy.Options{}); err != nil {
		return nil, nil, err
	}
	if got := policy.RegoCompiled(topdown); len(got) > 0 {
		return nil, nil, fmt.Errorf("CHATLINT_REGO_EVAL=topdown still compiles %v", got)
	}
	return compiled, topdown, nil
}

func regocRun(ev *policy.Evaluator, doc *document.Document) regocOutcome {
	hits, acts, err := ev.EvaluateActions(context.Background(), doc)
	o := regocOutcome{Hits: hits, Acts: acts}
	if err != nil {
		o.Err = err.Error()
	}
	return o
}

// regocCompare evaluates every record with both engines and reports the
// first differences; it returns how many records gave a hit or an action.
func regocCompare(t testing.TB, name string, compiled, topdown *policy.Engine, records []ast.Object) int {
	t.Helper()
	ec, et := compiled.NewEvaluator(), topdown.NewEvaluator()
	fired, diffs := 0, 0
	for i, rec := range records {
		mk := func(e *policy.Engine) *document.Document {
			return document.NewBuilder(document.Chat, "t.jsonl", document.Options{Fields: e.Fields()}).Add(i+1, rec)
		}
		want, got := regocRun(et, mk(topdown)), regocRun(ec, mk(compiled))
		if len(want.Hits)+len(want.Acts) > 0 || want.Err != "" {
			fired++
		}
		if d := cmp.Diff(want, got); d != "" {
			if diffs++; diffs <= 3 {
				t.Errorf("%s, record %d (%s): (-topdown +compiled):\n%s", name, i+1, shortRecord(rec), d)
			}
		}
	}
	return fired
}

func shortRecord(rec ast.Object) string {
	s := rec.String()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// regocRecords are the records of every fixture file of the repository,
// of ../shared/data when there (not with -short), and generated ones.
func regocRecords(t testing.TB, shared bool) []ast.Object {
	roots := []string{"../../policies", "../../fixtures"}
	if _, err := os.Stat("../../../shared/data"); err == nil && shared {
		roots = append(roots, "../../../shared/data")
	}
	var out []ast.Object
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				if v, err := astjson.Decode(sc.Bytes()); err == nil {
					if o, ok := v.(ast.Object); ok {
						out = append(out, o)
					}
				}
			}
			return nil
		})
	}
	rnd := rand.New(rand.NewPCG(25, 3))
	for range 400 {
		out = append(out, regocRandomRecord(rnd))
	}
	return out
}

// regocRandomRecord is a chat record of random shape: roles, tool calls and
// results whose ids may match, content of every JSON type.
func regocRandomRecord(rnd *rand.Rand) ast.Object {
	roles := []string{"system", "user", "assistant", "tool", "function", "developer", ""}
	values := []any{nil, true, false, 0, 1.5, "", "s", "Some text", "42", "x.", `{"a":1}`, "[1,", []any{}, map[string]any{}}
	var msgs []any
	for range rnd.IntN(8) {
		m := map[string]any{"role": roles[rnd.IntN(len(roles))]}
		if rnd.IntN(4) > 0 {
			m["content"] = values[rnd.IntN(len(values))]
		}
		if rnd.IntN(3) == 0 {
			var calls []any
			for range rnd.IntN(4) {
				c := map[string]any{"id": fmt.Sprintf("c%d", rnd.IntN(4)), "type": "function",
					"function": map[string]any{"name": "f", "arguments": values[rnd.IntN(len(values))]}}
				calls = append(calls, c)
			}
			m["tool_calls"] = calls
		}
		if rnd.IntN(3) == 0 {
			m["tool_call_id"] = fmt.Sprintf("c%d", rnd.IntN(4))
		}
		msgs = append(msgs, m)
	}
	v, err := ast.InterfaceToValue(map[string]any{"messages": msgs})
	if err != nil {
		panic(err)
	}
	return v.(ast.Object)
}

// TestRegoCompiledSameAsTopdown: the closures give exactly what topdown
// gives — hits in the same order, actions, errors — for every package of
// every built-in pack, the team packs of the repository, the bench pack
// and the construct cases written for this test, over every fixture record,
// the shared sample data and generated records.
func TestRegoCompiledSameAsTopdown(t *testing.T) {
	records := regocRecords(t, !testing.Short())
	if !sweep.Full() { // every third record in the default run; all under -tags exhaustive
		var some []ast.Object
		for i := 0; i < len(records); i += 3 {
			some = append(some, records[i])
		}
		records = some
	}
	all, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string][]*policy.Pack{"constructs": regocCasePacks(regocCases), "conflicts": regocCasePacks(regocConflictCases)}
	for _, p := range all {
		sets["builtin:"+p.Name] = []*policy.Pack{p}
	}
	dirs, _ := filepath.Glob("../../fixtures/packs/*")
	dirs = append(dirs, "../../scripts/bench-pack")
	pdirs, _ := filepath.Glob("../../policies/*")
	for _, d := range append(dirs, pdirs...) {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		p, err := policy.LoadFS(os.DirFS(d), ".", d)
		if err != nil || len(p.Rego) == 0 {
			continue
		}
		sets[d] = []*policy.Pack{p}
	}
	// The default run compares the construct cases, the cleanup packs
	// fix runs by default (their actions must not depend on which
	// evaluator ran them) and a sample of the packs; the `exhaustive`
	// build tag compares every pack.
	for _, name := range sweep.Keys(sets, 6, "constructs", "conflicts", "builtin:openai-tools", "builtin:transcript") {
		compiled, topdown := regocEngines(t, sets[name])
		t.Logf("%s: compiled %v", name, policy.RegoCompiled(compiled))
		if len(policy.RegoCompiled(compiled)) == 0 {
			continue // both on topdown: nothing to compare
		}
		fired := regocCompare(t, name, compiled, topdown, records)
		fallbacks := policy.RegoFallbacks(compiled)
		switch name {
		case "constructs":
			if got := len(policy.RegoCompiled(compiled)); got != len(regocCases) {
				t.Errorf("constructs: %d of %d case packages compile: %v", got, len(regocCases), policy.RegoCompiled(compiled))
			}
			if fallbacks > 0 {
				t.Errorf("constructs: %d records fell back to topdown", fallbacks)
			}
			if fired < 100 {
				t.Errorf("constructs: only %d records gave anything: the comparison proves little", fired)
			}
		case "conflicts":
			if got := len(policy.RegoCompiled(compiled)); got != len(regocConflictCases) {
				t.Errorf("conflicts: %d of %d case packages compile: %v", got, len(regocConflictCases), policy.RegoCompiled(compiled))
			}
			if fallbacks == 0 || fallbacks > int64(len(records))*9/10 {
				t.Errorf("conflicts: %d of %d records fell back to topdown (want some, not all)", fallbacks, len(records))
			}
		}
	}
}

// TestRegoCompiledHonoursTimeout: a compiled rule that would loop for long
// is stopped by the per-document time limit, with the error topdown's
// evaluation gives.
func TestRegoCompiledHonoursTimeout(t *testing.T) {
	pack := &policy.Pack{Name: "slow", Rego: []policy.File{{Name: "slow.rego", Source: []byte(`package chatlint.slow

# METADATA
# description: compares every message with every other, twice.
# custom:
#   id: slow
#   severity: info
deny contains f if {
	some i, a in input.messages
	some j, b in input.messages
	some k, c in input.messages
	a.text == b.text
	b.text == c.text
	i < j
	j < k
	k < 0
	f := {"rule": "slow", "msg": "never"}
}
`)}}}
	e, err := policy.Compile(context.Background(), []*policy.Pack{pack}, policy.Options{RecordTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if got := policy.RegoCompiled(e); len(got) != 1 {
		t.Fatalf("compiled packages %v, want the slow one", got)
	}
	var msgs []any
	for range 2000 {
		msgs = append(msgs, map[string]any{"role": "user", "content": "same"})
	}
	v, _ := ast.InterfaceToValue(map[string]any{"messages": msgs})
	doc := document.NewBuilder(document.Chat, "t.jsonl", document.Options{Fields: e.Fields()}).Add(1, v.(ast.Object))
	start := time.Now()
	_, err = e.NewEvaluator().Evaluate(context.Background(), doc)
	// 2,000 messages: twice the limit (it is per policy.WorkUnit messages).
	want := "evaluating policies took longer than 100ms (50ms per 1000 messages, entries, tool calls or content parts); the document was not checked"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
}
