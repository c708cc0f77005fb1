package policy

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// compiledModules lists the pack modules of the programs e compiled, as
// "pack/file" for builtin:policies/pack/file.rego, sorted.
func (e *Engine) compiledModules() []string {
	var progs []*regoProgram
	if e.rego != nil {
		progs = append(progs, e.rego)
	}
	e.progs.mu.Lock()
	for _, ep := range e.progs.bySet {
		if ep.prog != nil {
			progs = append(progs, ep.prog)
		}
	}
	e.progs.mu.Unlock()
	var out []string
	for _, p := range progs {
		for name := range maps.Keys(p.modules) {
			if name != gatherFile {
				out = append(out, strings.TrimPrefix(name, "builtin:policies/"))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// With Options.LazyRego a document's first evaluation compiles the Rego of
// the packs that apply to its format and profile only (rego_packset.go):
// a contract record the contract pack's, a chat record under the openai
// profile the finetune pack's but its other providers' files, a chat record under the default profile
// none; every program of every pack is not compiled at all. The hits are
// those of an engine compiled at once, and so are the dataset document's.
func TestLazyRegoCompilesApplyingPacks(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	eager, err := Compile(ctx, packs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	contract := []string{"contract/contract.rego", "contract/dataset.rego"}
	// Under openai, not the files of the other providers (profileModules).
	finetune := []string{"finetune/common.rego", "finetune/dataset.rego", "finetune/dataset_tokens.rego",
		"finetune/files.rego", "finetune/openai.rego"}
	chat := `{"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{not json"}}]}, {"role": "tool", "tool_call_id": "c9", "content": "{}"}], "weight": 2}`
	for _, tc := range []struct {
		name    string
		format  document.Format
		profile string
		record  string
		want    []string // the modules compiled
	}{
		{"contract", document.Contract, "", `{"conversation_id": "c1", "timestamp": "yesterday", "messages": [{"role": "user", "content": "Hi"}]}`, contract},
		{"chat under openai", document.Chat, "openai", chat, finetune},
		{"chat", document.Chat, "", chat, nil},
		{"claude-code", document.ClaudeCode, "", `{"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "Hi"}}`,
			[]string{"claude-code/claudecode.rego"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forgetCompiled() // parts of an earlier test would have every pack's program compiled
			lazy, err := Compile(ctx, packs, Options{LazyRego: true})
			if err != nil {
				t.Fatal(err)
			}
			doc := func() *document.Document {
				v, err := astjson.Decode([]byte(tc.record))
				if err != nil {
					t.Fatal(err)
				}
				return buildOne(tc.format, tc.profile, v.(ast.Object))
			}
			want, err := eager.Evaluate(ctx, doc())
			if err != nil {
				t.Fatal(err)
			}
			got, err := lazy.Evaluate(ctx, doc())
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && len(want) == 0 {
				t.Fatal("no hits to compare")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hits differ (-eager +lazy):\n%s", diff)
			}
			// The file's dataset document: a dataset rule of the contract
			// pack applies to contract files, of the finetune pack under a
			// provider profile.
			if lazy.HasDatasetFor(tc.profile, string(tc.format)) {
				ds := ast.NewObject(
					[2]*ast.Term{ast.StringTerm("format"), ast.StringTerm(string(tc.format))},
					[2]*ast.Term{ast.StringTerm("records"), ast.ArrayTerm()},
				)
				want, werr := eager.NewEvaluator().EvaluateDataset(ctx, string(tc.format), tc.profile, ds)
				got, gerr := lazy.NewEvaluator().EvaluateDataset(ctx, string(tc.format), tc.profile, ds)
				if diff := cmp.Diff(want, got); diff != "" || (werr == nil) != (gerr == nil) {
					t.Errorf("dataset hits differ (-eager +lazy):\n%s\nerrors %v, %v", diff, werr, gerr)
				}
			}
			if diff := cmp.Diff(tc.want, lazy.compiledModules()); diff != "" {
				t.Errorf("modules compiled (-want +got):\n%s", diff)
			}
			if lazy.parts.prog != nil {
				t.Error("the program of every pack was compiled")
			}
		})
	}
}

// A worker that evaluates documents of formats given different programs
// keeps each program's queries apart: a contract record, then a Claude
// Code entry, then a contract record again get an eager engine's hits.
func TestLazyRegoWorkerSwitchesPrograms(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	eager, lazy := eagerAndLazy(t, packs)
	records := []struct {
		format document.Format
		record string
	}{
		{document.Contract, `{"conversation_id": "c1", "timestamp": "yesterday", "messages": [{"role": "user", "content": "Hi"}]}`},
		{document.ClaudeCode, `{"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "Hi"}}`},
		{document.Contract, `{"conversation_id": 7, "user_id": "u", "timestamp": "2024-01-01T00:00:00Z", "messages": []}`},
	}
	want, got := eager.NewEvaluator(), lazy.NewEvaluator()
	for i, r := range records {
		doc := func() *document.Document {
			v, err := astjson.Decode([]byte(r.record))
			if err != nil {
				t.Fatal(err)
			}
			return buildOne(r.format, "", v.(ast.Object))
		}
		w, err := want.Evaluate(ctx, doc())
		if err != nil {
			t.Fatal(err)
		}
		g, err := got.Evaluate(ctx, doc())
		if err != nil {
			t.Fatal(err)
		}
		if len(w) == 0 {
			t.Fatalf("record %d: no hits to compare", i)
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("record %d (%s): hits differ (-eager +lazy):\n%s", i, r.format, diff)
		}
	}
}

// buildOne builds the document of one record, or of a session of one line.
func buildOne(f document.Format, profile string, rec ast.Object) *document.Document {
	b := document.NewBuilder(f, "data.jsonl", document.Options{Profile: profile})
	if d := b.Add(1, rec); d != nil {
		return d
	}
	return b.Finish()
}

// Workers that meet documents of different pack sets at once compile each
// set once, apart, and get an eager engine's hits (run with -race).
func TestLazyRegoConcurrentPackSets(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	eager, lazy := eagerAndLazy(t, packs)
	records := []struct {
		format  document.Format
		profile string
		record  string
	}{
		{document.Contract, "", `{"conversation_id": "c1", "timestamp": "yesterday", "messages": [{"role": "user", "content": "Hi"}]}`},
		{document.ClaudeCode, "", `{"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "Hi"}}`},
		{document.Chat, "openai", `{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "weight": 3}]}`},
		// Its set overlaps the chat record's: both hold the finetune pack,
		// whose parsed modules two compiles may then copy at once.
		{document.Contract, "openai", `{"conversation_id": "c1", "timestamp": "yesterday", "messages": [{"role": "user", "content": "Hi"}]}`},
	}
	doc := func(i int) *document.Document {
		v, err := astjson.Decode([]byte(records[i].record))
		if err != nil {
			t.Error(err)
			return nil
		}
		return buildOne(records[i].format, records[i].profile, v.(ast.Object))
	}
	want := make([][]Hit, len(records))
	for i := range records {
		var err error
		if want[i], err = eager.Evaluate(ctx, doc(i)); err != nil || len(want[i]) == 0 {
			t.Fatalf("record %d: %d hits, %v", i, len(want[i]), err)
		}
	}
	const workers = 8
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			ev := lazy.NewEvaluator()
			for k := range 2 * len(records) {
				i := (w + k) % len(records)
				got, err := ev.Evaluate(ctx, doc(i))
				if err != nil {
					t.Error(err)
					return
				}
				if diff := cmp.Diff(want[i], got); diff != "" {
					t.Errorf("worker %d, record %d: hits differ (-eager +lazy):\n%s", w, i, diff)
				}
			}
		}()
	}
	for range workers {
		<-done
	}
}

// eagerAndLazy compiles packs twice: at once, and with the built-in Rego
// compiled at need (after forgetting what the first compile kept, so the
// lazy engine compiles its own programs).
func eagerAndLazy(t *testing.T, packs []*Pack) (eager, lazy *Engine) {
	t.Helper()
	ctx := context.Background()
	eager, err := Compile(ctx, packs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	forgetCompiled()
	if lazy, err = Compile(ctx, packs, Options{LazyRego: true}); err != nil {
		t.Fatal(err)
	}
	return eager, lazy
}
