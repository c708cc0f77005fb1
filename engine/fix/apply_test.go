package fix

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// records splits lines into records numbered from 1.
func records(lines ...string) []jsonl.Record {
	out := make([]jsonl.Record, len(lines))
	for i, l := range lines {
		out[i] = jsonl.Record{Line: i + 1, Data: []byte(l), End: "\n"}
	}
	return out
}

func docOf(t testing.TB, f document.Format, recs []jsonl.Record) *document.Document {
	t.Helper()
	b := document.NewBuilder(f, "t.jsonl", document.Options{})
	var d *document.Document
	for _, r := range recs {
		v, err := astjson.Decode(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		if x := b.Add(r.Line, v.(ast.Object)); x != nil {
			d = x
		}
	}
	if x := b.Finish(); x != nil {
		d = x
	}
	return d
}

// act builds an action from JSON, as a Rego rule would give it.
func act(t testing.TB, s string) policy.Action {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	a := policy.Action{Rule: "r", Args: map[string]any{}}
	for k, v := range m {
		switch k {
		case "op":
			a.Op = v.(string)
		case "rule":
			a.Rule = v.(string)
		case "target":
			a.Target = document.Target(v.(string))
		case "reason":
			a.Reason = v.(string)
		case "message_index", "tool_call_index", "entry_index":
		default:
			a.Args[k] = v
		}
	}
	if a.Target == "" {
		idx := func(k string) int {
			n, ok := m[k].(json.Number)
			if !ok {
				return -1
			}
			i, _ := n.Int64()
			return int(i)
		}
		a.Target = document.TargetOf(idx("message_index"), idx("tool_call_index"), -1, idx("entry_index"))
	}
	return a
}

// applyCase applies actions (JSON texts) to the records of a document of
// format f. With wantErr set it checks that Apply fails with that text and
// returns nil; else it fails the test on an error.
func applyCase(t *testing.T, f document.Format, recs []jsonl.Record, actions []string, wantErr string) *Result {
	t.Helper()
	var acts []policy.Action
	for _, s := range actions {
		acts = append(acts, act(t, s))
	}
	res, err := Apply(docOf(t, f, recs), recs, acts)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error = %v, want %q", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// rejectLines writes each reject as "LINE OP DATA".
func rejectLines(res *Result) []string {
	var out []string
	for _, r := range res.Rejects {
		out = append(out, strings.Join([]string{strconv.Itoa(r.Line), r.Op, string(r.Data)}, " "))
	}
	return out
}

func lines(res *Result) string {
	var b strings.Builder
	for _, r := range res.Records {
		b.Write(r.Data)
		b.WriteString(r.End)
	}
	return b.String()
}

func TestApply(t *testing.T) {
	chat := `{"id":"c1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"2.50"}],"n":1.0}`
	session := []string{
		`{"type":"session","id":"s"}`,
		`{"type":"message","id":"e1","parentId":null,"timestamp":"t1","message":{"role":"user","content":[{"type":"text","text":"q"}]}}`,
		`{"type":"message","id":"e2","parentId":"e1","timestamp":"t2","message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"f","arguments":{}},{"type":"toolCall","id":"b","name":"g","input":null}]}}`,
		`{"type":"message","id":"e3","parentId":"e2","timestamp":"t3","message":{"role":"toolResult","toolCallId":"x","content":[]}}`,
	}
	cases := []struct {
		name    string
		format  document.Format
		in      []string
		actions []string
		want    string
		rejects []string
		err     string
	}{
		{
			name: "drop a message", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/3"}`},
			want:    `{"id":"c1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"}],"n":1.0}` + "\n",
			rejects: []string{`1 drop_message {"role":"tool","tool_call_id":"b","content":"2.50"}`},
		},
		{
			name: "drop every call removes tool_calls", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_tool_call","message_index":1,"tool_call_index":0}`, `{"op":"drop_tool_call","target":"/messages/1/tool_calls/1"}`},
			want:    `{"id":"c1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"2.50"}],"n":1.0}` + "\n",
			rejects: []string{
				`1 drop_tool_call {"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}`,
				`1 drop_tool_call {"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}`,
			},
		},
		{
			name: "move, insert in rank order, set content", format: document.Chat, in: []string{chat},
			actions: []string{
				`{"op":"move_message","target":"/messages/2","after":"/messages/3"}`,
				`{"op":"insert_message","target":"/messages/0","position":"before","message":{"content":"sys","role":"system"}}`,
				`{"op":"insert_message","target":"/messages/3","message":{"role":"user","content":"z"},"rank":2}`,
				`{"op":"set_content","target":"/messages/0","content":[{"type":"text","text":"Q"}]}`,
			},
			want: `{"id":"c1","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"Q"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"b","content":"2.50"},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"user","content":"z"}],"n":1.0}` + "\n",
		},
		{
			name: "rename a call and its result", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/1","id":"b_2"}`},
			want:    `{"id":"c1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b_2","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b_2","content":"2.50"}],"n":1.0}` + "\n",
		},
		{
			name: "drop the record", format: document.Contract, in: []string{chat},
			actions: []string{`{"op":"drop_record"}`, `{"op":"drop_message","target":"/messages/0"}`},
			want:    "",
			rejects: []string{"1 drop_record " + chat},
		},
		{
			name: "conflict", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/3","rule":"a"}`, `{"op":"set_content","target":"/messages/3","content":"x","rule":"b"}`},
			err:     "conflicting actions on /messages/3: drop_message (rule a) and set_content (rule b)",
		},
		{
			name: "conflict on a call", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/1","rule":"a"}`, `{"op":"drop_tool_call","target":"/messages/1/tool_calls/0","rule":"b"}`},
			err:     "conflicting actions on /messages/1: drop_message (rule a) and drop_tool_call (rule b)",
		},
		{
			name: "content already there and the id it has: nothing asked", format: document.Chat, in: []string{chat},
			actions: []string{
				`{"op":"set_content","target":"/messages/0","content":"q"}`,
				`{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/0","id":"a"}`,
				`{"op":"drop_message","target":"/messages/0","rule":"other"}`,
			},
			want:    `{"id":"c1","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"2.50"}],"n":1.0}` + "\n",
			rejects: []string{`1 drop_message {"role":"user","content":"q"}`},
		},
		{
			name: "Anthropic tool results: the blocks and messages that are not messages stay", format: document.Chat,
			in: []string{`{"messages":[{"role":"user","content":"q"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"}]},{"role":"user","content":[{"type":"text","text":"t"},{"type":"tool_result","tool_use_id":"b","content":"2"},{"type":"text","text":"u"}]},{"role":"user","content":"x"}]}`},
			// messages: 0 q, 1 result a, 2 result b, 3 the text of raw message 2, 4 x
			actions: []string{`{"op":"drop_message","target":"/messages/0"}`, `{"op":"drop_message","target":"/messages/2"}`, `{"op":"drop_message","target":"/messages/4"}`},
			want:    `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"}]},{"role":"user","content":[{"type":"text","text":"t"},{"type":"text","text":"u"}]}]}` + "\n",
			rejects: []string{`1 drop_message {"role":"user","content":"q"}`, `1 drop_message {"type":"tool_result","tool_use_id":"b","content":"2"}`, `1 drop_message {"role":"user","content":"x"}`},
		},
		{
			name: "bad target", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/9"}`},
			err:     "rule r: drop_message /messages/9: index 9 out of range (4)",
		},
		{
			name: "tool target", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/tools/0"}`},
			err:     "rule r: drop_message /tools/0: unknown target",
		},
		{
			name: "malformed target", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/x"}`},
			err:     "rule r: drop_message /messages/x: unknown target",
		},
		{
			name: "unknown op", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"explode","target":"/messages/1"}`},
			err:     "unknown op",
		},
		{
			name: "move cycle", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"move_message","target":"/messages/2","after":3}`, `{"op":"move_message","target":"/messages/3","after":2}`},
			err:     "cycle",
		},
		{
			name: "session: drop a call, drop a line, insert an entry, relink", format: document.PiSession, in: session,
			actions: []string{
				`{"op":"drop_tool_call","target":"/messages/1/tool_calls/1"}`,
				`{"op":"drop_message","target":"/messages/2"}`,
				`{"op":"insert_message","target":"/messages/1","message":{"role":"toolResult","toolCallId":"a","toolName":"f","content":[],"isError":true}}`,
			},
			want: session[0] + "\n" + session[1] + "\n" +
				`{"type":"message","id":"e2","parentId":"e1","timestamp":"t2","message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"f","arguments":{}}]}}` + "\n" +
				`{"type":"message","id":"65b44e09","parentId":"e2","timestamp":"t2","message":{"role":"toolResult","toolCallId":"a","toolName":"f","content":[],"isError":true}}` + "\n",
			rejects: []string{
				`3 drop_tool_call {"type":"toolCall","id":"b","name":"g","input":null}`,
				"4 drop_message " + session[3],
			},
		},
		{
			name: "session: an orphan tool_result block goes, its line and the real result stay", format: document.PiSession,
			in: append(session[:3:3], `{"type":"message","id":"e3","parentId":"e2","timestamp":"t3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"},{"type":"tool_result","tool_use_id":"z","content":"2"}]}}`),
			// messages: 0 user, 1 assistant, 2 result a (/message/content/0), 3 result z
			actions: []string{`{"op":"drop_message","target":"/messages/3"}`},
			want: strings.Join(session[:3], "\n") + "\n" +
				`{"type":"message","id":"e3","parentId":"e2","timestamp":"t3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"}]}}` + "\n",
			rejects: []string{`4 drop_message {"type":"tool_result","tool_use_id":"z","content":"2"}`},
		},
		{
			name: "session: dropping every tool_result block of a line drops the line", format: document.PiSession,
			in:      append(session[:3:3], `{"type":"message","id":"e3","parentId":"e2","timestamp":"t3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"y","content":"1"},{"type":"tool_result","tool_use_id":"z","content":"2"}]}}`),
			actions: []string{`{"op":"drop_message","target":"/messages/2"}`, `{"op":"drop_message","target":"/messages/3"}`},
			want:    strings.Join(session[:3], "\n") + "\n",
			rejects: []string{`4 drop_message {"type":"message","id":"e3","parentId":"e2","timestamp":"t3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"y","content":"1"},{"type":"tool_result","tool_use_id":"z","content":"2"}]}}`},
		},
		{
			name: "rename a tool_use call and the tool_result block answering it", format: document.Chat,
			in:      []string{`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"a","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"},{"type":"tool_result","tool_use_id":"a","content":"2"}]}]}`},
			actions: []string{`{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/1","id":"a_2","results":[3]}`},
			want:    `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"a_2","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"},{"type":"tool_result","tool_use_id":"a_2","content":"2"}]}]}` + "\n",
		},
		{
			name: "keep_record wins over every other action", format: document.Chat, in: []string{chat},
			actions: []string{`{"op":"drop_message","target":"/messages/3"}`, `{"op":"keep_record","rule":"unreadable","reason":"parts keyed value"}`},
			err:     "parts keyed value; the record was left as it was",
		},
		{
			name: "session: drop an entry", format: document.PiSession, in: session,
			actions: []string{`{"op":"drop_entry","entry_index":0}`},
			want:    session[0] + "\n" + `{"type":"message","id":"e2","parentId":null,"timestamp":"t2","message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"f","arguments":{}},{"type":"toolCall","id":"b","name":"g","input":null}]}}` + "\n" + session[3] + "\n",
			rejects: []string{"2 drop_entry " + session[1]},
		},
		{
			name: "proxy-log: drop a request message, not the response", format: document.ProxyLog,
			in:      []string{`{"session_id":"p","request":{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"z","content":"x"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a"}}]}}`},
			actions: []string{`{"op":"drop_message","target":"/messages/1"}`},
			want:    `{"session_id":"p","request":{"messages":[{"role":"user","content":"q"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a"}}]}}` + "\n",
			rejects: []string{`1 drop_message {"role":"tool","tool_call_id":"z","content":"x"}`},
		},
		{
			name: "proxy-log: drop a line of the log", format: document.ProxyLog,
			in: []string{
				`{"session_id":"p","request":{"messages":[{"role":"user","content":"q"}]}}`,
				`{"session_id":"p","request":{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}}`,
			},
			actions: []string{`{"op":"drop_entry","target":"/entries/0"}`, `{"op":"set_content","target":"/messages/1","content":"A"}`},
			want:    `{"session_id":"p","request":{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"A"}]}}` + "\n",
			rejects: []string{`1 drop_entry {"session_id":"p","request":{"messages":[{"role":"user","content":"q"}]}}`},
		},
		{
			name: "proxy-log: the response is edited in place only", format: document.ProxyLog,
			in:      []string{`{"session_id":"p","request":{"messages":[{"role":"user","content":"q"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a"}}]}}`},
			actions: []string{`{"op":"drop_message","target":"/messages/1"}`},
			err:     "can only be edited in place",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := applyCase(t, c.format, records(c.in...), c.actions, c.err)
			if res == nil {
				return
			}
			if diff := cmp.Diff(c.want, lines(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.rejects, rejectLines(res)); diff != "" {
				t.Errorf("rejects (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplyNoActionKeepsBytes: records no action touches are the same bytes.
func TestApplyNoActionKeepsBytes(t *testing.T) {
	recs := records(`{"messages":[ {"role":"user","content":"\u0041"} ]}`)
	res, err := Apply(docOf(t, document.Chat, recs), recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Records[0].Data) != string(recs[0].Data) || res.Changed[0] {
		t.Errorf("got %s changed=%v", res.Records[0].Data, res.Changed[0])
	}
}

// TestRunSettlesOnNoOpActions: a rule that keeps asking for the change it
// already made (no test for the defect) settles after that change, with the
// change counted once, instead of running out of passes.
func TestRunSettlesOnNoOpActions(t *testing.T) {
	pack := &policy.Pack{Name: "p", Kind: policy.KindCleanup, Rego: []policy.File{{Name: "p.rego", Source: []byte(`package chatlint.p

actions contains {"op": "set_content", "target": sprintf("/messages/%d", [i]), "content": "", "rule": "empty-system"} if {
	some i, m in input.messages
	m.role == "system"
}
`)}}}
	eng, err := policy.Compile(context.Background(), []*policy.Pack{pack}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := records(`{"messages":[{"role":"system","content":"Be nice."},{"role":"user","content":"hi"}]}`, `{"messages":[{"role":"system","content":""}]}`)
	var got []string
	for _, r := range recs {
		out, err := Run(context.Background(), []*policy.Evaluator{eng.NewEvaluator()}, []jsonl.Record{r}, Options{Format: document.Chat, File: "t"})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s changed=%v passes=%d applied=%d", out.Records[0].Data, out.Changed[0], out.Passes, len(out.Applied)))
	}
	want := []string{
		`{"messages":[{"role":"system","content":""},{"role":"user","content":"hi"}]} changed=true passes=1 applied=1`,
		`{"messages":[{"role":"system","content":""}]} changed=false passes=0 applied=0`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAnyClashAgreesWithPairs: anyClash, the one-pass test conflicts runs
// before walking the pairs, finds a clash exactly where some pair of ops
// clashes, over every small set of ops on one message of two calls, one in
// its content.
func TestAnyClashAgreesWithPairs(t *testing.T) {
	m := msgInfo{calls: []callInfo{{path: "/tool_calls/0"}, {path: "/content/1"}}}
	kinds := []*op{
		{Action: policy.Action{Op: OpDropMessage}, kind: targetMessage},
		{Action: policy.Action{Op: OpSetContent}, kind: targetMessage},
		{Action: policy.Action{Op: OpMove}, kind: targetMessage},
		{Action: policy.Action{Op: OpDropToolCall}, kind: targetCall, call: 0},
		{Action: policy.Action{Op: OpRename}, kind: targetCall, call: 0},
		{Action: policy.Action{Op: OpRename}, kind: targetCall, call: 1},
	}
	var sets func(prefix []*op, from int)
	checked := 0
	sets = func(prefix []*op, from int) {
		pairs := false
		for i, x := range prefix {
			for _, y := range prefix[i+1:] {
				pairs = pairs || clash(x, y, m)
			}
		}
		if got := anyClash(prefix, m); got != pairs {
			var ops []string
			for _, o := range prefix {
				ops = append(ops, fmt.Sprintf("%s/%d", o.Op, o.call))
			}
			t.Errorf("anyClash(%v) = %v, pairs say %v", ops, got, pairs)
		}
		checked++
		if len(prefix) == 4 {
			return
		}
		for i := from; i < len(kinds); i++ {
			sets(append(prefix[:len(prefix):len(prefix)], kinds[i]), i) // repeats allowed
		}
	}
	sets(nil, 0)
	if checked < 100 {
		t.Fatalf("checked %d sets of ops", checked)
	}
}
