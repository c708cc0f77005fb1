package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// AgentsRunState is a serialized OpenAI Agents SDK RunState (RunState.to_json,
// saved to resume a run, e.g. after a tool approval): one JSON object
// {"$schemaVersion", "original_input": string | [items], "generated_items":
// [{"type": "message_output_item"|"tool_call_item"|"tool_call_output_item"|
// "reasoning_item"|"handoff_call_item"|"handoff_output_item"|
// "tool_approval_item", "raw_item": Responses API item, "agent"}],
// "model_responses", "session_items", "current_step", "context", …}.
// The conversation is what the SDK's to_input_list() gives: the original
// input (a string is one user message), then each generated item's
// raw_item. A tool_approval_item repeats the call awaiting approval (the
// tool_call_item before it holds it): it is not read again.
// model_responses, last_model_response and session_items repeat items too;
// they, the context and the bookkeeping are named for convert.
const AgentsRunState Format = "openai-agents-runstate"

var agentsRunStateAdapter = &Adapter{
	Format:     AgentsRunState,
	Summary:    `an OpenAI Agents SDK RunState: {"$schemaVersion", "original_input", "generated_items": [{"type", "raw_item": Responses item}], …}, one JSON document`,
	Detect:     isAgentsRunState,
	Shape:      `an Agents SDK RunState {"$schemaVersion": string, "generated_items": [...], "original_input"}`,
	NewBuilder: func(file string, opts Options) Builder { return agentsRunState{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "an Agents SDK RunState is the SDK's saved run (its items repeated in model_responses and session_items), which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyRSSchema    = ast.StringTerm("$schemaVersion")
	keyRSGenerated = ast.StringTerm("generated_items")
	keyRSOriginal  = ast.StringTerm("original_input")
	keyRSRawItem   = ast.StringTerm("raw_item")
)

func isAgentsRunState(rec ast.Object) bool {
	return isStringMember(rec, keyRSSchema) && arrayField(rec, keyRSGenerated) != nil && get(rec, keyRSOriginal) != nil
}

type agentsRunState struct {
	file string
	opts Options
}

func (b agentsRunState) Add(line int, rec ast.Object) *Document {
	var un unmappedSet
	un.addOthers(line, rec, "", "original_input", "generated_items")
	r := responseItems{un: &un}
	seen := map[string]bool{} // the ids of the input's items
	in := get(rec, keyRSOriginal)
	if in == nil {
		in = ast.NullTerm() // a record forced to the format without one
	}
	switch v := in.Value.(type) {
	case ast.String:
		m := message{raw: in, role: "user", line: line, pathTerm: strTerm("/original_input"), chatIndex: -1, ownCalls: true}
		m.text, m.hasContent, m.textTerm = string(v), v != "", in
		r.ms = append(r.ms, m)
	case *ast.Array:
		r.prefix = "original_input[] "
		for i := 0; i < v.Len(); i++ {
			r.add(line, v.Elem(i), pointerIndex("/original_input", i))
			item, _ := v.Elem(i).Value.(ast.Object)
			if id := stringField(item, keyID); id != "" {
				seen[id] = true
			}
		}
	}
	r.prefix = "generated_items[] "
	gen := arrayField(rec, keyRSGenerated)
	for i := 0; gen != nil && i < gen.Len(); i++ {
		g, _ := gen.Elem(i).Value.(ast.Object)
		raw := get(g, keyRSRawItem)
		var item ast.Object
		if raw != nil {
			item, _ = raw.Value.(ast.Object)
		}
		switch typ := stringField(g, keyType); {
		case typ == "tool_approval_item":
			continue // the call of the tool_call_item before it
		case raw == nil:
			un.add(line, "generated_items without a raw_item ("+typ+")")
			continue
		case stringField(item, keyID) != "" && seen[stringField(item, keyID)]:
			// An item the input holds already (a resumed run's history):
			// the same item, by its id, not a second turn.
			continue
		}
		r.add(line, raw, pointerIndex("/generated_items", i)+"/raw_item")
	}
	d := newDoc(AgentsRunState, b.file, line, fallbackID(b.file, line), b.opts)
	mode := detectMode(r.ms, b.opts.ToolCalls)
	d.Value = newDocument(d, mode, r.ms, emptyArray, emptyArray, ast.NewTerm(rec))
	d.Unmapped = un.list("Agents SDK RunState members")
	return d
}

func (agentsRunState) Finish() *Document { return nil }
