package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// The reference's two lines for a tool message under --json-tool-calls: its
// content is not a string opening <tool_result (convert leaves a result
// without tool_call_id unwrapped), or the wrapper is never closed. Both are
// ERROR lines in the reference's words, whatever the pack's message says.
func TestInlineToolResultWrapperLines(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      Finding
	}{
		{"plain text", `{"role": "tool", "content": "no id"}`,
			Finding{Error: true, Rule: "inline-tool-result-wrapper", Message: "tool result missing <tool_result> wrapper", Line: 4}},
		{"no content", `{"role": "tool"}`,
			Finding{Error: true, Rule: "inline-tool-result-wrapper", Message: "tool result missing <tool_result> wrapper", Line: 4}},
		{"a list of parts", `{"role": "tool", "content": [{"type": "text", "text": "<tool_result>x</tool_result>"}]}`,
			Finding{Error: true, Rule: "inline-tool-result-wrapper", Message: "tool result missing <tool_result> wrapper", Line: 4}},
		{"left open", `{"role": "tool", "content": "<tool_result tool_call_id=\"c1\">18"}`,
			Finding{Error: true, Rule: "inline-tool-result-wrapper", Message: "tool result missing closing </tool_result> tag", Line: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonv.Decode([]byte(tc.msg))
			if err != nil {
				t.Fatal(err)
			}
			mp := &mapping{written: &Record{Messages: []*jsonv.Object{v.(*jsonv.Object)}}, line: 4}
			h := hit{Rule: "inline-tool-result-wrapper", Message: "tool message 0 is not wrapped", Error: true, ToolCallIndex: -1, ToolIndex: -1, EntryIndex: -1}
			got := reportLines(mp, []hit{h})
			if diff := cmp.Diff([]Finding{tc.want}, got); diff != "" {
				t.Errorf("report lines (-want +got):\n%s", diff)
			}
		})
	}
}
