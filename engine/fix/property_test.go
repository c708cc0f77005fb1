package fix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// randomChat makes a chat record from the pieces cleanup rules care about:
// calls with ids from a small pool (so ids repeat), some without an id or
// input, tool messages answering them in any order, unknown ids, messages
// without a role, and exact repeats.
func randomChat(r *rand.Rand) []byte {
	ids := []string{"a", "b", "c", "", "z"}
	var ms []any
	n := 1 + r.IntN(12)
	for range n {
		switch r.IntN(7) {
		case 0:
			ms = append(ms, map[string]any{"role": "user", "content": []string{"hi", "again", "thanks"}[r.IntN(3)]})
		case 1:
			ms = append(ms, map[string]any{"role": "assistant", "content": "ok"})
		case 2, 3:
			var calls []any
			for range 1 + r.IntN(3) {
				c := map[string]any{"type": "function", "function": map[string]any{"name": "f", "arguments": "{}"}}
				if id := ids[r.IntN(4)]; id != "" {
					c["id"] = id
				}
				if r.IntN(8) == 0 {
					c["function"].(map[string]any)["arguments"] = nil
				}
				calls = append(calls, c)
			}
			ms = append(ms, map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
		case 4, 5:
			m := map[string]any{"role": "tool", "content": []string{"1", "2"}[r.IntN(2)]}
			if id := ids[r.IntN(5)]; id != "" {
				m["tool_call_id"] = id
			}
			ms = append(ms, m)
		default:
			if len(ms) > 0 && r.IntN(2) == 0 {
				ms = append(ms, ms[len(ms)-1]) // an exact repeat
			} else {
				ms = append(ms, map[string]any{"content": "no role"})
			}
		}
	}
	// Calls without ids in the last message are a fine-tuning example's
	// target, which fix keeps: a closing user turn, half the time, makes
	// them calls fix drops.
	if r.IntN(2) == 0 {
		ms = append(ms, map[string]any{"role": "user", "content": "bye"})
	}
	b, _ := json.Marshal(map[string]any{"id": "r", "messages": ms})
	return b
}

// TestPacksOnRandomRecords: on generated records every stage of the
// built-in packs settles without a conflict, a second run changes nothing,
// and the integrity pack no longer reports what the stage fixes.
func TestPacksOnRandomRecords(t *testing.T) {
	cleanup, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	checks, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	compile := func(ps ...*policy.Pack) *policy.Engine {
		e, err := policy.Compile(context.Background(), ps, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	openai, transcript := compile(packNamed(t, cleanup, "openai-tools")), compile(packNamed(t, cleanup, "transcript"))
	integrity := compile(checks...).NewEvaluator()
	stages := []struct {
		name   string
		evs    []*policy.Evaluator
		cleans []string // integrity findings that must be gone
	}{
		{"openai-tools", []*policy.Evaluator{openai.NewEvaluator()}, []string{"tool-result-orphan", "tool-result-duplicate", "tool-call-id-reused", "tool-call-missing-id", "message-repeated"}},
		{"transcript", []*policy.Evaluator{transcript.NewEvaluator()}, []string{"tool-result-duplicate", "tool-call-missing-input", "tool-results-out-of-order"}},
		{"openai-tools, transcript", []*policy.Evaluator{openai.NewEvaluator(), transcript.NewEvaluator()},
			[]string{"tool-result-orphan", "tool-result-duplicate", "tool-call-id-reused", "tool-result-missing", "tool-call-missing-input", "tool-call-missing-id", "tool-results-out-of-order"}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	changed := map[string]int{}
	for i := range 200 {
		rec := randomChat(r)
		for _, st := range stages {
			recs := []jsonl.Record{{Line: 1, Data: rec, End: "\n"}}
			out, err := Run(context.Background(), st.evs, recs, Options{Format: document.Chat, File: "r"})
			var kept *KeptError
			var unread *UnreadError
			if errors.As(err, &kept) || errors.As(err, &unread) {
				continue // a message without a role: the record is left as it is
			}
			if err != nil {
				t.Fatalf("record %d, %s: %v\n%s", i, st.name, err, rec)
			}
			again, err := Run(context.Background(), st.evs, out.Records, Options{Format: document.Chat, File: "r"})
			if errors.As(err, &unread) {
				continue // only messages without a role are left: fix leaves the record alone
			}
			if err != nil {
				t.Fatalf("record %d, %s: a second run: %v\n%s\n%s", i, st.name, err, rec, out.Records[0].Data)
			}
			if again.AnyChange() {
				t.Fatalf("record %d, %s: a second run: %+v\n%s", i, st.name, again.Applied, rec)
			}
			if out.AnyChange() {
				changed[st.name]++
			}
			if len(out.Records) == 0 {
				continue
			}
			v, _ := astjson.Decode(out.Records[0].Data)
			doc := document.NewBuilder(document.Chat, "r", document.Options{}).Add(1, v.(ast.Object))
			hits, err := integrity.Evaluate(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if slices.Contains(st.cleans, h.Rule) {
					t.Errorf("record %d, %s: check still reports %s: %s\nin:  %s\nout: %s", i, st.name, h.Rule, h.Message, rec, out.Records[0].Data)
				}
			}
		}
	}
	// The generator must make work for every stage, or the test proves nothing.
	for _, st := range stages {
		if changed[st.name] < 100 {
			t.Errorf("%s changed only %d of 200 records", st.name, changed[st.name])
		}
	}
	t.Logf("records changed per stage: %v", changed)

}

// randomSession makes an pi-session file of the same pieces: toolCall
// blocks (some with null input), toolResult messages, aborted assistant
// messages, other entries, and parent links.
func randomSession(r *rand.Rand) []jsonl.Record {
	ids := []string{"a", "b", "c", "", "z"}
	lines := []any{map[string]any{"type": "session", "id": "s"}}
	n := 1 + r.IntN(14)
	for i := range n {
		var msg map[string]any
		switch r.IntN(7) {
		case 0:
			msg = map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}}
		case 1, 2:
			var blocks []any
			if r.IntN(3) == 0 {
				blocks = append(blocks, map[string]any{"type": "text", "text": "let me see"})
			}
			for range 1 + r.IntN(3) {
				b := map[string]any{"type": []string{"toolCall", "toolUse", "tool_use"}[r.IntN(3)], "id": ids[r.IntN(4)], "name": "read", "arguments": map[string]any{}}
				if r.IntN(6) == 0 {
					b["arguments"] = nil
				}
				blocks = append(blocks, b)
			}
			msg = map[string]any{"role": "assistant", "content": blocks, "stopReason": []string{"toolUse", "toolUse", "aborted", "error"}[r.IntN(4)], "timestamp": i}
		case 3, 4, 5:
			msg = map[string]any{"role": "toolResult", "toolCallId": ids[r.IntN(5)], "toolName": "read", "content": []any{map[string]any{"type": "text", "text": "x"}}, "isError": false}
		default:
			lines = append(lines, map[string]any{"type": "model_change", "id": fmt.Sprint("e", i), "parentId": nil, "provider": "p"})
			continue
		}
		lines = append(lines, map[string]any{"type": "message", "id": fmt.Sprint("e", i), "parentId": nil, "timestamp": "t", "message": msg})
	}
	// Link the entries in a line, as a linear session does.
	prev := any(nil)
	var recs []jsonl.Record
	for i, l := range lines {
		if e := l.(map[string]any); i > 0 {
			e["parentId"] = prev
			prev = e["id"]
		}
		b, _ := json.Marshal(l)
		recs = append(recs, jsonl.Record{Line: i + 1, Data: b, End: "\n"})
	}
	return recs
}

// TestPacksOnRandomSessions: every stage settles on generated sessions, a
// second run changes nothing, and the output lines are JSON objects whose
// parent links still form one line.
func TestPacksOnRandomSessions(t *testing.T) {
	cleanup, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	var evs []*policy.Evaluator
	for _, p := range cleanup {
		e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e.NewEvaluator())
	}
	stages := map[string][]*policy.Evaluator{"openai-tools": evs[:1], "transcript": evs[1:], "openai-tools, transcript": evs}
	r := rand.New(rand.NewPCG(3, 4))
	changed := 0
	for i := range 150 {
		recs := randomSession(r)
		for name, st := range stages {
			out, err := Run(context.Background(), st, recs, Options{Format: document.PiSession, File: "s"})
			if err != nil {
				t.Fatalf("session %d, %s: %v", i, name, err)
			}
			again, err := Run(context.Background(), st, out.Records, Options{Format: document.PiSession, File: "s"})
			if err != nil || again.AnyChange() {
				t.Fatalf("session %d, %s: a second run: %v %+v", i, name, err, again.Applied)
			}
			if out.AnyChange() {
				changed++
			}
			prev := any(nil)
			for k, rec := range out.Records {
				var e map[string]any
				if err := json.Unmarshal(rec.Data, &e); err != nil {
					t.Fatalf("session %d, %s: line %d: %v", i, name, k, err)
				}
				if k > 0 {
					if e["parentId"] != prev {
						t.Fatalf("session %d, %s: line %d links to %v, not %v", i, name, k, e["parentId"], prev)
					}
					prev = e["id"]
				}
			}
		}
	}
	if changed < 150 {
		t.Errorf("only %d of 450 runs changed something", changed)
	}
}

// packNamed returns the pack of that name.
func packNamed(t testing.TB, packs []*policy.Pack, name string) *policy.Pack {
	t.Helper()
	for _, p := range packs {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no pack %s", name)
	return nil
}
