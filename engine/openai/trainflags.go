package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A message may say whether it is trained on. OpenAI (and Mistral and
// Together) take weight 0 or 1 on an assistant message (OpenAI's
// fine-tuning guide, "weight"); other trainers write the same meaning in
// members of their own:
//
//   - loss_weight, LLaMA-Factory's per-message loss weight (a number, 0.0
//     for the prompt, 1.0 for an answer: hiyouga/LLaMA-Factory
//     src/llamafactory/v1/extras/types.py, Message);
//   - train or training, the boolean axolotl's chat_template strategy reads
//     with message_field_training (axolotl-ai-cloud/axolotl
//     tests/prompt_strategies/test_chat_templates_advanced.py,
//     test_message_field_training; torchtune's chat transform names the
//     same setting, "commonly weight");
//   - train_detail, axolotl's spans of a message's text to train on
//     (message_field_training_detail), which a whole-message weight cannot
//     hold.
//
// A flag of 0 or 1 (false or true) on an assistant message is written as
// its weight; whatever else a message says about its training is named in
// a note, never dropped without a word.
var trainFlags = []string{"weight", "loss_weight", "train", "training"}

// trainDetail is axolotl's member for spans of the text to train on.
const trainDetail = "train_detail"

// messageMembers returns the members of a raw message, looking inside an
// entry that wraps it in a "message" member (transcript lines).
func messageMembers(raw any) map[string]any {
	m, _ := raw.(map[string]any)
	if inner, ok := m["message"].(map[string]any); ok {
		return inner
	}
	return m
}

// flagValue reads a training flag as 0 or 1: a boolean, or a number that is
// exactly 0 or 1 (1.0 included, as LLaMA-Factory writes it).
func flagValue(v any) (int, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case json.Number:
		if f, err := x.Float64(); err == nil && (f == 0 || f == 1) {
			return int(f), true
		}
	case float64:
		if x == 0 || x == 1 {
			return int(x), true
		}
	case int:
		if x == 0 || x == 1 {
			return x, true
		}
	}
	return 0, false
}

// weight reads an assistant message's training weight from the flags it
// carries: one or more flags that agree on 0 or 1 give the weight; a flag of
// another value, flags that disagree, and spans are noted and left out.
func (c *converter) weight(line, i int, raw any) *int {
	r := messageMembers(raw)
	c.noteTrainDetail(line, i, "assistant", r)
	var w *int
	var named []string
	for _, k := range trainFlags {
		v, ok := r[k]
		if !ok || v == nil {
			continue
		}
		f, ok := flagValue(v)
		if !ok {
			c.note(line, "assistant message %d has %s %s; OpenAI takes 0 or 1: left out", i, k, jsonText(v))
			return nil
		}
		if w != nil && *w != f {
			c.note(line, "assistant message %d has %s, which disagree: no weight written", i, flagList(r, append(named, k)))
			return nil
		}
		w = &f
		named = append(named, k)
	}
	return w
}

// inputFlags notes the training flags of a message OpenAI never trains on
// (system, user, tool): a flag that trains it (1, true) cannot be kept; a 0
// or false says what OpenAI does anyway, and is no loss.
func (c *converter) inputFlags(line, i int, role string, raw any) {
	r := messageMembers(raw)
	c.noteTrainDetail(line, i, role, r)
	var trained []string
	for _, k := range trainFlags {
		v, ok := r[k]
		if !ok || v == nil {
			continue
		}
		if f, ok := flagValue(v); ok && f == 0 {
			continue
		}
		trained = append(trained, k)
	}
	if len(trained) > 0 {
		c.note(line, "%s message %d has %s; OpenAI trains on assistant messages only: left out", role, i, flagList(r, trained))
	}
}

func (c *converter) noteTrainDetail(line, i int, role string, r map[string]any) {
	if v, ok := r[trainDetail]; ok && v != nil {
		c.note(line, "%s message %d has %s (spans of its text to train on); OpenAI weighs whole messages: left out", role, i, trainDetail)
	}
}

// flagList writes the named flags with their values: "loss_weight 0 and
// train true".
func flagList(r map[string]any, names []string) string {
	parts := make([]string, len(names))
	for n, k := range names {
		parts[n] = k + " " + jsonText(r[k])
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// jsonText writes a decoded JSON value as JSON text would (1.5, true,
// "x").
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// reasoningLeft notes, once per conversation, the assistant messages whose
// reasoning convert left out (without --keep-reasoning), and the encrypted
// reasoning no option can keep.
func (c *converter) reasoningLeft() {
	if len(c.droppedReasoning) > 0 {
		c.note(c.reasoningLine, "the reasoning of %s (%s) is left out: --keep-reasoning writes it as <think> text before the assistant's answer",
			plural("message", c.droppedReasoning), strings.Join(c.reasoningKinds, ", "))
	}
	if len(c.redacted) > 0 {
		c.note(c.redactedLine, "%s %s encrypted reasoning (redacted_thinking), which no OpenAI example can hold: left out",
			capitalFirst(plural("message", c.redacted)), map[bool]string{true: "holds", false: "hold"}[len(c.redacted) == 1])
	}
	c.droppedReasoning, c.reasoningKinds, c.redacted = nil, nil, nil
}

// sawRedacted records that message i, on line, holds encrypted reasoning.
func (c *converter) sawRedacted(line, i int) {
	if len(c.redacted) == 0 {
		c.redactedLine = line
	}
	c.redacted = append(c.redacted, i)
}

// sawReasoning records that message i, on line, had reasoning of the kinds
// given, left out. The note names the line of the first such message.
func (c *converter) sawReasoning(line, i int, kinds []string) {
	if len(kinds) == 0 {
		return
	}
	if len(c.droppedReasoning) == 0 {
		c.reasoningLine = line
	}
	if !slices.Contains(c.droppedReasoning, i) {
		c.droppedReasoning = append(c.droppedReasoning, i)
	}
	for _, k := range kinds {
		if !slices.Contains(c.reasoningKinds, k) {
			c.reasoningKinds = append(c.reasoningKinds, k)
		}
	}
}

// plural writes "message 3" or "messages 1, 3 and 5".
func plural(noun string, idx []int) string {
	s := make([]string, len(idx))
	for n, i := range idx {
		s[n] = fmt.Sprint(i)
	}
	if len(s) == 1 {
		return noun + " " + s[0]
	}
	return noun + "s " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
