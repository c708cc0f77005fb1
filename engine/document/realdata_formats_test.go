package document

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Facts about the sample files of the ShareGPT and batch formats, counted
// from the files themselves (python's json module): what the adapters must
// read from real data written by other projects.
func TestRealDataShareGPTAndBatches(t *testing.T) {
	files := loadRealData(t)
	get := func(rel string) *realFile {
		t.Helper()
		rf := files[rel]
		if rf == nil {
			t.Skipf("%s: not in the sample data", rel)
		}
		return rf
	}
	type tally struct{ docs, calls, results, paired, tools, emptyAssistant int }
	count := func(rf *realFile) tally {
		var n tally
		for _, d := range rf.docs {
			n.docs++
			n.tools += d.Tools().Len()
			msgs := d.Messages()
			for i := 0; i < msgs.Len(); i++ {
				m := msgs.Elem(i).Value.(ast.Object)
				calls := m.Get(KeyToolCalls).Value.(*ast.Array)
				n.calls += calls.Len()
				role := stringField(m, keyRole)
				if role == "assistant" && calls.Len() == 0 && stringField(m, keyText) == "" {
					n.emptyAssistant++
				}
				if role != "tool" {
					continue
				}
				n.results++
				// Paired: the result's id is a call of its turn's message.
				id := m.Get(keyToolCallID)
				turn, _ := m.Get(keyTurn).Value.(ast.Number).Int()
				if id == nil || turn < 0 {
					continue
				}
				tc := msgs.Elem(turn).Value.(ast.Object).Get(KeyToolCalls).Value.(*ast.Array)
				for k := 0; k < tc.Len(); k++ {
					if tc.Elem(k).Value.(ast.Object).Get(keyID).Equal(id) {
						n.paired++
						break
					}
				}
			}
		}
		return n
	}
	for _, tc := range []struct {
		rel  string
		want tally
	}{
		// 300 records; 211 function_call turns each answered by the
		// observation after it; 191 records declare 219 tools in a JSON string.
		{"tool-tags-sharegpt/llamafactory-glaive-toolcall-sharegpt.json", tally{docs: 300, calls: 211, results: 211, paired: 211, tools: 219}},
		{"tool-tags-sharegpt/fastchat-dummy-conversation-sharegpt.json", tally{docs: 500}},
		{"tool-tags-sharegpt/axolotl-sharegpt-conversation.json", tally{docs: 1}},
		// The same conversation with turn 1 (gpt) blanked.
		{"tool-tags-sharegpt/axolotl-sharegpt-conversation-missingturns.json", tally{docs: 1, emptyAssistant: 1}},
		{"proxy-logs/groq-batch-input.jsonl", tally{docs: 3}},
		{"proxy-logs/groq-batch-output.jsonl", tally{docs: 3}},
	} {
		if got := count(get(tc.rel)); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.rel, got, tc.want)
		}
	}

	// Batch lines are named by custom_id; input requests hold system + user,
	// each output line one assistant message (the lines come back in another
	// order than the requests).
	var ids, roles []string
	for _, d := range get("proxy-logs/groq-batch-input.jsonl").docs {
		ids = append(ids, d.ID)
		for i := 0; i < d.Messages().Len(); i++ {
			roles = append(roles, stringField(d.Messages().Elem(i).Value.(ast.Object), keyRole))
		}
	}
	if got := strings.Join(ids, " ") + " | " + strings.Join(roles, " "); got != "request-1 request-2 request-3 | system user system user system user" {
		t.Errorf("groq input: %s", got)
	}
	ids, roles = nil, nil
	for _, d := range get("proxy-logs/groq-batch-output.jsonl").docs {
		ids = append(ids, d.ID)
		m := d.Messages().Elem(0).Value.(ast.Object)
		roles = append(roles, stringField(m, keyRole)+":"+stringField(m, KeyPath))
	}
	want := "request-2 request-3 request-1 | " + strings.Repeat("assistant:/response/body/choices/0/message ", 3)
	want = strings.TrimSpace(want)
	if got := strings.Join(ids, " ") + " | " + strings.Join(roles, " "); got != want {
		t.Errorf("groq output: %s", got)
	}
	// FastChat records carry their own ids.
	if d := get("tool-tags-sharegpt/fastchat-dummy-conversation-sharegpt.json").docs[0]; d.ID != "identity_0" {
		t.Errorf("fastchat id %q", d.ID)
	}
}
