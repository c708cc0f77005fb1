package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// A ShareGPT preference record (LLaMA-Factory's DPO/ORPO/SimPO data, as in
// its dpo_en_demo.json) holds the prompt as conversations and the two
// answers beside it: {"conversations": [...], "chosen": {"from", "value"},
// "rejected": {"from", "value"}}. Each answer is a turn, a list of turns,
// or a bare string (an assistant turn). The document keeps them as the
// members chosen and rejected, lists of normalized messages read as the
// conversation's turns are (paths /chosen, /chosen/K), so that convert
// writes the record as a preference example and stats counts it as one.
var (
	keyChosen   = ast.StringTerm("chosen")
	keyRejected = ast.StringTerm("rejected")
)

// shareGPTPreference adds chosen and rejected to doc when rec has either.
// first is the number of messages before them, so that the calls of an
// answer get ids of their own.
func shareGPTPreference(doc ast.Object, rec ast.Object, line, first int, opts Options) {
	addAnswers(doc, rec, line, opts, func(t *ast.Term, path string, k int) []message {
		return []message{shareGPTTurn(t, line, path, first+k)}
	})
}

// chatPreference does the same for a chat record whose answers sit beside
// its messages as {role, content} messages (LLaMA-Factory's preference data
// in its OpenAI-style layout: {"messages", "chosen", "rejected"}).
func chatPreference(doc ast.Object, rec ast.Object, line int, opts Options) {
	addAnswers(doc, rec, line, opts, func(t *ast.Term, path string, _ int) []message {
		return appendMessages(nil, t, line, strTerm(path), -1)
	})
}

// addAnswers adds the members chosen and rejected, each answer's turns read
// by turn.
func addAnswers(doc ast.Object, rec ast.Object, line int, opts Options, turn func(t *ast.Term, path string, k int) []message) {
	ch, rj := get(rec, keyChosen), get(rec, keyRejected)
	if ch == nil && rj == nil {
		return
	}
	for _, a := range []struct {
		key  *ast.Term
		term *ast.Term
	}{{keyChosen, ch}, {keyRejected, rj}} {
		name := string(a.key.Value.(ast.String))
		var ms []message
		switch v := termValue(a.term).(type) {
		case *ast.Array:
			for k := 0; k < v.Len(); k++ {
				ms = append(ms, turn(v.Elem(k), pointerIndex("/"+name, k), len(ms))...)
			}
		case ast.Object:
			ms = append(ms, turn(a.term, "/"+name, 0)...)
		case ast.String:
			ms = append(ms, message{raw: a.term, role: "assistant", text: string(v), textTerm: a.term, hasContent: v != "",
				line: line, pathTerm: strTerm("/" + name), chatIndex: -1})
		}
		mode := detectMode(ms, opts.ToolCalls)
		shareGPTIDs(ms, mode)
		doc.Insert(a.key, buildMessages(ms, mode))
	}
}

// termValue is t's value, nil for a nil term.
func termValue(t *ast.Term) ast.Value {
	if t == nil {
		return nil
	}
	return t.Value
}
