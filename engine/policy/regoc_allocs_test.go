package policy

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// TestRegocIterationAllocsFlat: evaluating the benchmark matrix's team
// rules (scripts/bench-team) as compiled closures allocates about as much
// for a record of 80 assistant messages with tool calls as for one of 40:
// an iteration, an every and a comprehension make no closure of their own
// per message. Each iterating step made two per run, so a longer record
// cost two allocations more per assistant message.
func TestRegocIterationAllocsFlat(t *testing.T) {
	for _, name := range []string{"compiled", "outside"} {
		src, err := os.ReadFile("../../scripts/bench-team/" + name + ".rego.in")
		if err != nil {
			t.Fatal(err)
		}
		rego := strings.ReplaceAll(string(src), "MOD == REM", "1 == 1") // fires on none
		e := mustCompile(t, Options{}, packOf(t, map[string]string{"team.rego": rego}))
		allocs := func(turns int) float64 {
			doc := teamDoc(t, e, turns)
			ev := e.NewEvaluator()
			ctx := context.Background()
			return testing.AllocsPerRun(50, func() {
				if _, err := ev.Evaluate(ctx, doc); err != nil {
					t.Fatal(err)
				}
			})
		}
		// Both lengths make counts past the integers OPA interns, so
		// that the arithmetic on them allocates alike.
		short, long := allocs(40), allocs(80)
		t.Logf("%s: %.0f allocations for 40 turns, %.0f for 80", name, short, long)
		if long-short > 8 {
			t.Errorf("%s: %.0f allocations for 40 turns, %.0f for 80: want about as many", name, short, long)
		}
	}
}

// teamDoc is a chat record of turns assistant messages, each with two tool
// calls and their results, built with the fields e's rules read.
func teamDoc(t *testing.T, e *Engine, turns int) *document.Document {
	t.Helper()
	var msgs []string
	msgs = append(msgs, `{"role":"user","content":"go"}`)
	for i := range turns {
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[`+
			`{"id":"a%d","type":"function","function":{"name":"f","arguments":"{}"}},`+
			`{"id":"b%d","type":"function","function":{"name":"g","arguments":"{}"}}]}`, i, i))
		msgs = append(msgs, fmt.Sprintf(`{"role":"tool","tool_call_id":"a%d","content":"x"}`, i),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"b%d","content":"y"}`, i))
	}
	v, err := astjson.Decode([]byte(`{"messages":[` + strings.Join(msgs, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return document.NewBuilder(document.Chat, "data.jsonl", document.Options{Fields: e.Fields()}).Add(1, v.(ast.Object))
}
