package openai

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/document"
)

// carried names, per format whose records are read member by member, the
// top-level members an example carries (the conversation, its tools, a
// ShareGPT system prompt). Every other member of such a record has no place
// in an OpenAI example: a note names it, so that nothing is lost without a
// word. A member the conversion learns to carry is added here.
// Besides the conversation: images become image_url parts, chosen and
// rejected a preference (DPO) example, and a KTO label decides whether
// the record gives an example at all (meaning.go, images.go).
var carried = map[document.Format]map[string]bool{
	document.Chat:     {"messages": true, "interactions": true, "tools": true, "system": true, "images": true, "chosen": true, "rejected": true, "label": true, "kto_tag": true}, // system: Anthropic's prompt
	document.Contract: {"messages": true, "tools": true, "system": true},
	document.ShareGPT: {"conversations": true, "tools": true, "system": true, "images": true, "chosen": true, "rejected": true, "label": true, "kto_tag": true},
}

// leftOut notes the top-level members of the record (raw) that no example
// carries.
func (c *converter) leftOut(f document.Format, raw any) {
	keep, ok := carried[f]
	rec, isObj := raw.(map[string]any)
	if !ok || !isObj {
		return
	}
	var out []string
	for k := range rec {
		// interactions is the conversation only where there are no
		// messages (mistral-finetune's other name for them).
		if !keep[k] || k == "interactions" && rec["messages"] != nil {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return
	}
	slices.Sort(out)
	noun, verb := "member", "has"
	if len(out) > 1 {
		noun, verb = "members", "have"
	}
	c.notes = append(c.notes, Note{Line: c.line, Message: fmt.Sprintf(
		"the record's %s %s %s no place in an OpenAI example: left out", noun, quoteAll(out), verb)})
}

// quoteAll lists names quoted: "a", "b" and "c".
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
