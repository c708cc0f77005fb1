package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPartKinds holds what the adapters declare, joined, to the tables
// convert --to openai and fix kept before the adapters owned them.
func TestPartKinds(t *testing.T) {
	typed := map[string]PartClass{
		"text": PartText, "input_text": PartText, "output_text": PartText,
		"tool_use": PartToolCall, "tool_call": PartToolCall, "toolCall": PartToolCall, "toolUse": PartToolCall,
		"function_call": PartToolCall, "functionCall": PartToolCall,
		"tool_result": PartToolResult, "toolResult": PartToolResult, "function_response": PartToolResult, "functionResponse": PartToolResult,
		"thinking": PartReasoning, "redacted_thinking": PartReasoning, "reasoning": PartReasoning,
		"image_url": PartUnknown, "input_audio": PartUnknown, "file": PartUnknown,
	}
	for typ, want := range typed {
		// A typed part is known by its type alone, whatever else it holds.
		if got := ClassifyPart(map[string]any{"type": typ, "functionCall": map[string]any{}}); got != want {
			t.Errorf("type %s: %v, want %v", typ, got, want)
		}
	}
	untyped := []struct {
		part map[string]any
		want PartClass
	}{
		{map[string]any{"text": "x"}, PartText},
		{map[string]any{"thought": true, "text": "x"}, PartReasoning},
		{map[string]any{"functionCall": map[string]any{}}, PartToolCall},
		{map[string]any{"function_call": map[string]any{}}, PartToolCall},
		{map[string]any{"functionResponse": map[string]any{}}, PartToolResult},
		{map[string]any{"function_response": map[string]any{}}, PartToolResult},
		{map[string]any{"inlineData": map[string]any{}}, PartUnknown},
		{nil, PartUnknown},
	}
	for _, c := range untyped {
		if got := ClassifyPart(c.part); got != c.want {
			t.Errorf("%v: %v, want %v", c.part, got, c.want)
		}
	}
	if d := cmp.Diff([]string{"tool_call_id", "toolCallId", "toolUseId", "tool_use_id", "call_id"}, ResultIDMembers()); d != "" {
		t.Errorf("result id members (-want +got):\n%s", d)
	}
	has := func(ks ...string) func(string) bool {
		return func(k string) bool { return cmp.Equal(ks, []string{k}) }
	}
	if got := CallIDMember(has("call_id")); got != "call_id" {
		t.Errorf("a Codex call item: %q", got)
	}
	if got := CallIDMember(has("id")); got != "id" {
		t.Errorf("an OpenAI call: %q", got)
	}
}
