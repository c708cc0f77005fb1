package openai

import (
	"fmt"
)

// ktoLabels are the members a KTO record marks its answer with: TRL's and
// LLaMA-Factory's label, and kto_tag, the column LLaMA-Factory maps it to.
var ktoLabels = []string{"label", "kto_tag"}

// ktoNegative reports whether the record is a KTO example marked
// undesirable (a boolean label false), and the note saying what was done
// with it. Its answer is what the model should not say: written as a chat
// example it would be trained on as a positive one.
func (c *converter) ktoNegative(raw map[string]any) (Note, bool) {
	for _, k := range ktoLabels {
		if b, ok := raw[k].(bool); ok && !b {
			n := Note{Line: c.line, Message: fmt.Sprintf("a KTO record marked undesirable (%s false): its answer is what the model should not say, and an OpenAI chat example trains on it as a positive one: no example written (--kto-negatives %s)", k, c.kto())}
			n.Error = c.kto() == KTOError
			return n, true
		}
	}
	return Note{}, false
}

func (c *converter) kto() string {
	if c.opts.KTONegatives == "" {
		return KTOSkip
	}
	return c.opts.KTONegatives
}

// preference returns the chosen and rejected answers of a preference
// record, as the document normalizes them (the members chosen and
// rejected, lists of messages); ok is false for any other document.
func preference(doc map[string]any) (chosen, rejected []any, ok bool) {
	ch, okC := doc["chosen"].([]any)
	rj, okR := doc["rejected"].([]any)
	return ch, rj, okC || okR
}

// preference writes a preference record as OpenAI's preference (DPO)
// example: the conversation before the answers is the input, the chosen
// answer the preferred output, the rejected one the non-preferred output.
func (c *converter) preference(prompt []Message, tools []Tool, chosen, rejected []any) ([]Example, []Note) {
	pref := c.output(chosen, "chosen")
	non := c.output(rejected, "rejected")
	switch {
	case len(prompt) == 0:
		c.notes = append(c.notes, Note{Line: c.line, Error: true, Message: "the preference record has no prompt: no example written"})
		return nil, c.notes
	case len(pref) == 0 || len(non) == 0:
		c.notes = append(c.notes, Note{Line: c.line, Error: true, Message: "the preference record needs a chosen and a rejected assistant answer: no example written"})
		return nil, c.notes
	}
	for k := range prompt {
		if prompt[k].Weight != nil {
			c.note(c.line, "the weight of assistant message %d has no place in a preference example: left out", k)
			prompt[k].Weight = nil
		}
	}
	return []Example{{Input: &PreferenceInput{Messages: prompt, Tools: tools}, PreferredOutput: pref, NonPreferredOutput: non}}, c.notes
}

// output converts one answer of a preference record: its assistant
// messages, converted as any other (calls, reasoning), the others noted.
func (c *converter) output(msgs []any, name string) []Message {
	sub := newConverter(c.opts, c.line)
	sub.inline = c.inline
	var out []Message
	for k, m := range sub.messages(msgs) {
		if m.Role != "assistant" {
			sub.note(c.line, "message %d has role %q; a preference output holds assistant messages only: left out", k, m.Role)
			continue
		}
		m.Weight = nil
		out = append(out, m)
	}
	for _, n := range sub.notes {
		n.Message = "the " + name + " answer: " + n.Message
		c.notes = append(c.notes, n)
	}
	return out
}
