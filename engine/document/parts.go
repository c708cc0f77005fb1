package document

import "slices"

// What a format's raw messages hold beside text and tool_calls, for the
// commands that read raw records: convert --to openai asks which content
// parts an example can hold (ClassifyPart), fix which members name a call's
// id (CallIDMember, ResultIDMembers). Each adapter declares its own (Parts,
// IDs); one that declares none has OpenAI's, the kinds every message may
// hold (defaultParts, defaultIDs), so a new adapter needs nothing more.

// PartKinds names the kinds of content part a format's messages hold.
type PartKinds struct {
	// Text, ToolCalls, ToolResults and Reasoning are part "type"s.
	Text, ToolCalls, ToolResults, Reasoning []string
	// Untyped are the members naming the kind of a part that has no
	// "type" (Gemini's {"functionCall": …}), asked in order.
	Untyped []UntypedPart
	// Thought: a part {"thought": true, …} is reasoning (Gemini).
	Thought bool
}

// IDMembers names where a format's raw records keep tool-call ids.
type IDMembers struct {
	// Call is the member of a call object holding its id when that is not
	// "id" (a Codex call item's call_id).
	Call string
	// Results are the members of a tool result naming the call it answers.
	Results []string
}

// UntypedPart is a member that makes a part without a type one of a class.
type UntypedPart struct {
	Member string
	Class  PartClass
}

// PartClass is what a content part is.
type PartClass int

const (
	PartUnknown PartClass = iota
	PartText
	PartToolCall
	PartToolResult
	PartReasoning
)

// defaultParts are the parts every message may hold: OpenAI's text parts
// (and the Responses API's input_text/output_text), and the tool-call and
// reasoning blocks the generic message reader takes (callBlockTypes).
var defaultParts = PartKinds{
	Text:      []string{"text", "input_text", "output_text"},
	ToolCalls: []string{"tool_call", "function_call", "toolUse"},
	Reasoning: []string{"reasoning"},
}

// defaultIDs are OpenAI's: a call's "id", a tool message's tool_call_id.
var defaultIDs = IDMembers{Results: []string{"tool_call_id"}}

// partKinds, resultIDs and callIDs join what every adapter declares: a raw
// message is read by the kinds of any format, as the document reader reads
// every shape whatever the file's format.
var partKinds = func() PartKinds {
	k := defaultParts
	for _, a := range registry {
		if p := a.Parts; p != nil {
			k.Text = appendNew(k.Text, p.Text...)
			k.ToolCalls = appendNew(k.ToolCalls, p.ToolCalls...)
			k.ToolResults = appendNew(k.ToolResults, p.ToolResults...)
			k.Reasoning = appendNew(k.Reasoning, p.Reasoning...)
			for _, u := range p.Untyped {
				if !slices.ContainsFunc(k.Untyped, func(x UntypedPart) bool { return x.Member == u.Member }) {
					k.Untyped = append(slices.Clip(k.Untyped), u)
				}
			}
			k.Thought = k.Thought || p.Thought
		}
	}
	return k
}()

var resultIDs, callIDs = func() (results, calls []string) {
	results = defaultIDs.Results
	for _, a := range registry {
		if i := a.IDs; i != nil {
			results = appendNew(results, i.Results...)
			if i.Call != "" {
				calls = appendNew(calls, i.Call)
			}
		}
	}
	return results, calls
}()

// appendNew appends what to does not hold yet, never into its array.
func appendNew(to []string, add ...string) []string {
	to = slices.Clip(to)
	for _, s := range add {
		if !slices.Contains(to, s) {
			to = append(to, s)
		}
	}
	return to
}

// ClassifyPart says what a raw content part is, by the kinds the adapters
// declare: a typed part by its type alone, an untyped one by its thought
// flag or the member naming its kind.
func ClassifyPart(p map[string]any) PartClass {
	if t, ok := p["type"].(string); ok {
		switch {
		case slices.Contains(partKinds.Text, t):
			return PartText
		case slices.Contains(partKinds.ToolCalls, t):
			return PartToolCall
		case slices.Contains(partKinds.ToolResults, t):
			return PartToolResult
		case slices.Contains(partKinds.Reasoning, t):
			return PartReasoning
		}
		return PartUnknown
	}
	if partKinds.Thought && p["thought"] == true {
		return PartReasoning
	}
	for _, u := range partKinds.Untyped {
		if _, ok := p[u.Member]; ok {
			return u.Class
		}
	}
	return PartUnknown
}

// CallIDMember names the member of a raw call object that holds its id:
// one an adapter declares when the call has it, else "id".
func CallIDMember(has func(member string) bool) string {
	for _, k := range callIDs {
		if has(k) {
			return k
		}
	}
	return "id"
}

// ResultIDMembers lists the members of a raw tool result that may name the
// call it answers, for every format.
func ResultIDMembers() []string { return resultIDs }
