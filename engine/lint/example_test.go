package lint_test

import (
	"context"
	"fmt"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// Checking one chat record with the built-in packs, without the runner: the
// call fix, convert and a distributed pipeline make.
func Example() {
	ctx := context.Background()
	packs, _ := builtin.Packs()
	eng, err := policy.Compile(ctx, packs, policy.Options{})
	if err != nil {
		panic(err)
	}
	l := lint.New(eng, document.Options{})

	rec := jsonl.Record{Line: 7, Data: []byte(`{"messages":[
		{"role":"user","content":"weather in Paris?"},
		{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c9","content":"sunny"},
		{"role":"assistant","content":"It is sunny."}],
		"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{}}}}]}`)}
	for _, f := range l.Check(ctx, lint.Unit{File: "train.jsonl", Format: document.Chat, Records: []jsonl.Record{rec}}) {
		fmt.Printf("%s:%d: %s %s (message %d)\n", f.File, f.Line, f.Severity, f.Rule, *f.MessageIndex)
	}
	// The record spans lines 7 to 11 (as an element of a .json array may):
	// each finding is on the line of the message it names.

	// Output:
	// train.jsonl:9: error tool-result-missing (message 1)
	// train.jsonl:10: error tool-result-orphan (message 2)
}
