package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// TestCodexRawLeavesOutUnread: when no rule reads a payload's
// aggregated_output or encrypted_content, the lines are decoded without
// them, as views where the messages are views: the document, once
// materialized, is the one the whole lines make but for those members of
// each payload; when a rule reads one, it is kept.
func TestCodexRawLeavesOutUnread(t *testing.T) {
	lines := []string{
		`{"timestamp":"t0","type":"session_meta","payload":{"id":"s-1","cwd":"/w","cli_version":"0.1"}}`,
		`{"timestamp":"t1","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run it"}]}}`,
		`{"timestamp":"t2","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}}`,
		`{"timestamp":"t3","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}`,
		`{"timestamp":"t4","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c1","exit_code":1,"aggregated_output":"boom"}}`,
		`{"timestamp":"t5","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"boom"}}`,
		// Parallel calls, the second and third on lines of their own (a
		// line member) and a custom tool's (free_form).
		`{"timestamp":"t6","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c2"}}`,
		`{"timestamp":"t7","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c3"}}`,
		`{"timestamp":"t8","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"c4"}}`,
		`{"timestamp":"t9","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"c5"}}`,
	}
	build := func(f *Fields, p *astjson.Projection) *Document {
		b := NewBuilder(Codex, "r.jsonl", Options{Fields: f})
		for i, l := range lines {
			v, err := astjson.DecodeProjected([]byte(l), p)
			if err != nil {
				t.Fatal(err)
			}
			b.Add(i+1, v.(ast.Object))
		}
		return b.Finish()
	}
	whole := build(nil, nil).Value
	for _, tc := range []struct {
		name  string
		read  string // the one omissible payload member the rules read
		plain bool   // messages as OPA objects (a Rego rule reads the document)
		gone  []string
	}{
		{"unread", "", false, []string{"cwd", "cli_version", "summary", "encrypted_content", "aggregated_output"}},
		{"aggregated_output read", "aggregated_output", false, []string{"cwd", "cli_version", "summary", "encrypted_content"}},
		{"plain messages", "", true, []string{"cwd", "cli_version", "summary", "encrypted_content", "aggregated_output"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFields(func(path ...string) bool {
				switch {
				case len(path) == 5 && path[0] == "entries" && path[2] == "raw" && path[3] == "payload":
					return path[4] == "type" || path[4] == "exit_code" || path[4] == tc.read
				case len(path) == 4 && path[0] == "messages" && path[2] == "raw":
					return path[3] == "content"
				}
				return true
			})
			if tc.plain {
				f = f.PlainMessages()
			}
			p := Projection(Codex, Options{Fields: f})
			if p == nil {
				t.Fatal("no projection")
			}
			if p.View == tc.plain {
				t.Errorf("projection view %v, want %v", p.View, !tc.plain)
			}
			d := build(f, p)
			if !tc.plain {
				if _, ok := arrayField(d.Value, keyEntries).Elem(0).Value.(*astjson.ObjectView); !ok {
					t.Error("entries are not views")
				}
				if _, ok := arrayField(d.Value, KeyMessages).Elem(0).Value.(*MessageValue); !ok {
					t.Error("messages are not MessageValues")
				}
				for _, m := range []int{1, 3} { // the assistant turns
					calls := arrayField(arrayField(d.Value, KeyMessages).Elem(m).Value.(ast.Object), KeyToolCalls)
					for i := 0; i < calls.Len(); i++ {
						if _, ok := calls.Elem(i).Value.(*astjson.ObjectView); !ok {
							t.Errorf("message %d, call %d is not a view", m, i)
						}
					}
				}
			}
			got := d.Materialized()
			materializedHoldsNoViews(t, got)
			want := whole.Copy()
			entries := arrayField(want, keyEntries)
			for i := 0; i < entries.Len(); i++ {
				e := entries.Elem(i).Value.(ast.Object)
				payload := e.Get(KeyRaw).Value.(ast.Object).Get(keyPayload).Value.(ast.Object)
				for _, g := range tc.gone {
					if payload.Get(ast.StringTerm(g)) != nil {
						kept := ast.NewObject()
						payload.Foreach(func(k, v *ast.Term) {
							if k.Value.Compare(ast.String(g)) != 0 {
								kept.Insert(k, v)
							}
						})
						payload = kept
					}
				}
				e.Get(KeyRaw).Value.(ast.Object).Insert(keyPayload, ast.NewTerm(payload))
			}
			// The messages' raw are the payloads the entries hold.
			msgs := arrayField(want, KeyMessages)
			for i := 0; i < msgs.Len(); i++ {
				m := msgs.Elem(i).Value.(ast.Object)
				line, _ := m.Get(KeyLine).Value.(ast.Number).Int()
				raw := entries.Elem(line - 1).Value.(ast.Object).Get(KeyRaw).Value.(ast.Object)
				m.Insert(KeyRaw, raw.Get(keyPayload))
			}
			if got.Compare(want) != 0 {
				t.Errorf("document\n got %v\nwant %v", got, want)
			}
		})
	}
}
