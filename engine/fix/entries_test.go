package fix

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
)

// Actions on the entry lines of Claude Code and Codex sessions: what each
// op does to the lines, and that every input line is either written or
// rejected.
func TestApplyEntryLayouts(t *testing.T) {
	ccl := func(uuid, parent, typ, msg string) string {
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"parentUuid":` + p + `,"sessionId":"s","type":"` + typ + `","message":` + msg + `,"uuid":"` + uuid + `"}`
	}
	user := ccl("u1", "", "user", `{"role":"user","content":"go"}`)
	call := func(uuid, parent, id string) string {
		return ccl(uuid, parent, "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"n","input":{}}]}`)
	}
	result := func(uuid, parent, id string) string {
		return ccl(uuid, parent, "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"r"}]}`)
	}
	both := ccl("r1", "a2", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"},{"type":"tool_result","tool_use_id":"t2","content":"r"}]}`)
	cx := func(payload string) string {
		return `{"timestamp":"t","type":"response_item","payload":` + payload + `}`
	}
	tests := []struct {
		name    string
		format  document.Format
		lines   []string
		actions []string
		// want is the output, each line named by its input line number
		// ("3"), "3*" when changed, "+" for an inserted one; rejects the
		// rejected input lines.
		want    []string
		rejects []int
		// parents are the parentUuid of the output lines, when checked.
		parents []any
		err     string
	}{
		{
			name:    "a result that is its whole entry drops the line; the next entry hangs from its parent",
			format:  document.ClaudeCode,
			lines:   []string{user, call("a1", "u1", "t1"), result("r1", "a1", "t1"), result("r9", "r1", "t9"), ccl("a2", "r9", "assistant", `{"id":"m2","role":"assistant","content":[{"type":"text","text":"ok"}]}`)},
			actions: []string{`{"op":"drop_message","target":"/messages/3"}`},
			want:    []string{"1", "2", "3", "5*"},
			rejects: []int{4},
			parents: []any{nil, "u1", "a1", "r1"},
		},
		{
			name:    "a result block in an entry holding another is removed in place",
			format:  document.ClaudeCode,
			lines:   []string{user, ccl("a2", "u1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"n","input":{}}]}`), both},
			actions: []string{`{"op":"drop_message","target":"/messages/3"}`},
			want:    []string{"1", "2", "3*"},
			rejects: []int{3},
		},
		{
			name:    "every block of an entry removed drops the line",
			format:  document.ClaudeCode,
			lines:   []string{user, ccl("a2", "u1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t0","name":"n","input":{}}]}`), both},
			actions: []string{`{"op":"drop_message","target":"/messages/2"}`, `{"op":"drop_message","target":"/messages/3"}`},
			want:    []string{"1", "2"},
			rejects: []int{3},
		},
		{
			name:    "a message written over several lines drops all of them",
			format:  document.ClaudeCode,
			lines:   []string{user, call("a1", "u1", "t1"), call("a2", "a1", "t2"), ccl("u2", "a2", "user", `{"role":"user","content":"next"}`)},
			actions: []string{`{"op":"drop_message","target":"/messages/1"}`},
			want:    []string{"1", "4*"},
			rejects: []int{2, 3},
			parents: []any{nil, "u1"},
		},
		{
			name:    "an inserted result is an entry of the session, linked in",
			format:  document.ClaudeCode,
			lines:   []string{user, call("a1", "u1", "t1"), ccl("u2", "a1", "user", `{"role":"user","content":"next"}`)},
			actions: []string{`{"op":"insert_message","target":"/messages/1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"none","is_error":true}]}}`},
			want:    []string{"1", "2", "+", "3*"},
		},
		{
			name:    "a result sharing its entry cannot be moved alone",
			format:  document.ClaudeCode,
			lines:   []string{user, ccl("a2", "u1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"n","input":{}},{"type":"tool_use","id":"t1","name":"n","input":{}}]}`), both},
			actions: []string{`{"op":"move_message","target":"/messages/2","after":3}`},
			err:     "shares its entry line",
		},
		{
			name:    "a message over several lines cannot have its content replaced",
			format:  document.ClaudeCode,
			lines:   []string{user, call("a1", "u1", "t1"), call("a2", "a1", "t2")},
			actions: []string{`{"op":"set_content","target":"/messages/1","content":"x"}`},
			err:     "written over 2 lines",
		},
		{
			name:    "a Codex call item dropped drops its line",
			format:  document.Codex,
			lines:   []string{cx(`{"type":"message","role":"user","content":[]}`), cx(`{"type":"function_call","name":"f","arguments":"{}","call_id":"c1"}`), cx(`{"type":"function_call","name":"f","arguments":null,"call_id":"c2"}`)},
			actions: []string{`{"op":"drop_tool_call","target":"/messages/1/tool_calls/1"}`},
			want:    []string{"1", "2"},
			rejects: []int{3},
		},
		{
			name:    "a Codex call renamed with its output",
			format:  document.Codex,
			lines:   []string{cx(`{"type":"function_call","name":"f","arguments":"{}","call_id":"c1"}`), cx(`{"type":"function_call_output","call_id":"c1","output":"x"}`)},
			actions: []string{`{"op":"rename_tool_call_id","target":"/messages/0/tool_calls/0","id":"c1_2"}`},
			want:    []string{"1*", "2*"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := applyCase(t, tc.format, records(tc.lines...), tc.actions, tc.err)
			if res == nil {
				return
			}
			var got []string
			inserted := 0
			for i, s := range res.Source {
				switch {
				case s < 0:
					got = append(got, "+")
					inserted++
				case res.Changed[i]:
					got = append(got, itoa(s+1)+"*")
				default:
					got = append(got, itoa(s+1))
					if string(res.Records[i].Data) != tc.lines[s] {
						t.Errorf("line %d is unchanged but its bytes differ", s+1)
					}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			var rejected []int
			whole := map[int]bool{}
			for _, r := range res.Rejects {
				rejected = append(rejected, r.Line)
				if string(r.Data) == tc.lines[r.Line-1] {
					whole[r.Line] = true
				}
			}
			if diff := cmp.Diff(tc.rejects, rejected); diff != "" {
				t.Errorf("rejects (-want +got):\n%s", diff)
			}
			// Every input line is written or rejected whole.
			if n := len(res.Records) - inserted + len(whole); n != len(tc.lines) {
				t.Errorf("%d lines out (less %d inserted) + %d rejected whole, want %d in", len(res.Records), inserted, len(whole), len(tc.lines))
			}
			if tc.parents != nil {
				var parents []any
				for _, r := range res.Records {
					parents = append(parents, jsonField(t, r.Data, "parentUuid"))
				}
				if diff := cmp.Diff(tc.parents, parents); diff != "" {
					t.Errorf("parentUuid (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func jsonField(t *testing.T, data []byte, key string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m[key]
}
