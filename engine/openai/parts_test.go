package openai

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
)

// TestUnknownPartsNotedByRun: consecutive parts of one unknown kind are one
// note; a content list of 30 million numbers made 30 million notes (12 GB
// in convert --to openai). A single part keeps its note, and a part of
// another kind, or an image, ends a run.
func TestUnknownPartsNotedByRun(t *testing.T) {
	nums := strings.TrimSuffix(strings.Repeat("0,", 1000), ",")
	line := fmt.Sprintf(`{"messages":[{"role":"user","content":[%s,{"type":"text","text":"a"},true,{"type":"audio"},{"type":"audio"},{"type":"image_url","image_url":{"url":"https://x/a.png"}},{"type":"audio"}]},{"role":"assistant","content":"ok"}]}`, nums)
	_, notes := Convert(documents(t, document.Chat, line)[0], Options{})
	var got []string
	for _, n := range notes {
		got = append(got, n.Message)
	}
	want := []string{
		"parts 0 to 999 of message 0 (each a JSON number) cannot be represented in an OpenAI chat example: left out",
		"part 1001 of message 0 (a JSON boolean) cannot be represented in an OpenAI chat example: left out",
		"parts 1002 to 1003 of message 0 (each type audio) cannot be represented in an OpenAI chat example: left out",
		"part 1005 of message 0 (type audio) cannot be represented in an OpenAI chat example: left out",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
