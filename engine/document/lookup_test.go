package document

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		lines  []string
		want   string
	}{{
		name:   "results answer the calls of their block",
		format: Chat,
		lines: []string{`{"messages": [{"role": "user", "content": "x"},
			{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}, {"id": "b", "function": {"name": "f"}}]},
			{"role": "tool", "tool_call_id": "b", "content": "1"}, {"role": "tool", "tool_call_id": "a", "content": "2"},
			{"role": "assistant", "content": "done"}]}`},
		want: `{"assistant": [1, 4], "tool": [2, 3], "calls": [[1, "a"], [1, "b"]], "call_ids": ["a", "b"], "call_names": ["f"], "results": [[1, "a"], [1, "b"]], "tool_call_lists": [1], "tool_names": []}`,
	}, {
		name:   "a result names a call of an earlier block, of no block, or nothing",
		format: Chat,
		lines: []string{`{"messages": [{"role": "tool", "tool_call_id": "a", "content": "early"},
			{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}]},
			{"role": "assistant", "content": "next"},
			{"role": "tool", "tool_call_id": "a", "content": "late"}, {"role": "tool", "tool_call_id": "z", "content": "?"},
			{"role": "tool", "content": "no id"}, {"role": "tool", "tool_call_id": null, "content": "null id"}]}`},
		want: `{"assistant": [1, 2], "tool": [0, 3, 4, 5, 6], "calls": [[1, "a"]], "call_ids": ["a"], "call_names": ["f"], "results": [[-1, "a"], [2, "a"], [2, "z"]], "tool_call_lists": [1], "tool_names": []}`,
	}, {
		name:   "repeated ids and results collapse in the sets",
		format: Chat,
		lines: []string{`{"messages": [{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}, {"id": "a", "function": {"name": "f"}}, {"function": {"name": "g"}}]},
			{"role": "tool", "tool_call_id": "a", "content": "1"}, {"role": "tool", "tool_call_id": "a", "content": "2"}]}`},
		want: `{"assistant": [0], "tool": [1, 2], "calls": [[0, ""], [0, "a"]], "call_ids": ["", "a"], "call_names": ["f", "g"], "results": [[0, "a"]], "tool_call_lists": [0], "tool_names": []}`,
	}, {
		name:   "a result id of another type than the call's",
		format: Chat,
		lines: []string{`{"messages": [{"role": "assistant", "tool_calls": [{"id": "7", "function": {"name": "f"}}]},
			{"role": "tool", "tool_call_id": 7, "content": "1"}]}`},
		want: `{"assistant": [0], "tool": [1], "calls": [[0, "7"]], "call_ids": ["7"], "call_names": ["f"], "results": [[0, 7]], "tool_call_lists": [0], "tool_names": []}`,
	}, {
		name:   "Anthropic tool results split from the user message",
		format: Chat,
		lines: []string{`{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "f", "input": {}}, {"type": "tool_use", "id": "tu2", "name": "f", "input": {}}]},
			{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": "1"}, {"type": "tool_result", "tool_use_id": "tu2", "content": "2"}, {"type": "text", "text": "and?"}]},
			{"role": "assistant", "content": "ok"}]}`},
		want: `{"assistant": [0, 4], "tool": [1, 2], "calls": [[0, "tu1"], [0, "tu2"]], "call_ids": ["tu1", "tu2"], "call_names": ["f"], "results": [[0, "tu1"], [0, "tu2"]], "tool_call_lists": [], "tool_names": []}`,
	}, {
		name:   "inline calls take the ids of their results",
		format: Chat,
		lines: []string{`{"messages": [{"role": "assistant", "content": "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>"},
			{"role": "tool", "content": "<tool_result tool_call_id=\"r1\">{}</tool_result>"}]}`},
		want: `{"assistant": [0], "tool": [1], "calls": [[0, "r1"]], "call_ids": ["r1"], "call_names": ["f"], "results": [[0, "r1"]], "tool_call_lists": [], "tool_names": []}`,
	}, {
		name:   "pi-session toolResult messages are tool results",
		format: PiSession,
		lines: []string{`{"type": "session", "id": "s"}`,
			`{"type": "message", "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "f", "arguments": {}}]}}`,
			`{"type": "message", "message": {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]}}`},
		want: `{"assistant": [0], "tool": [1], "calls": [[0, "c1"]], "call_ids": ["c1"], "call_names": ["f"], "results": [[0, "c1"]], "tool_call_lists": [], "tool_names": []}`,
	}, {
		name:   "proxy-log: the squashed record with the response message",
		format: ProxyLog,
		lines: []string{`{"session_id": "s", "request": {"messages": [{"role": "user", "content": "x"},
			{"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "1"}]},
			"response": {"choices": [{"message": {"role": "assistant", "content": "done"}}]}}`},
		want: `{"assistant": [1, 3], "tool": [2], "calls": [[1, "c1"]], "call_ids": ["c1"], "call_names": ["f"], "results": [[1, "c1"]], "tool_call_lists": [1], "tool_names": []}`,
	}, {
		name:   "tool_names: the names of the tools, a tool without one as \"\"",
		format: Chat,
		lines: []string{`{"messages": [{"role": "user", "content": "x"}],
			"tools": [{"type": "function", "function": {"name": "f"}}, {"name": "g", "input_schema": {}}, {"type": "function", "function": {}}, {"type": "function", "function": {"name": "f"}}]}`},
		want: `{"assistant": [], "tool": [], "calls": [], "call_ids": [], "call_names": [], "results": [], "tool_call_lists": [], "tool_names": ["", "f", "g"]}`,
	}, {
		name:   "message keys and content",
		format: Chat,
		lines: []string{`{"messages": [{"role": "system", "content": "Be brief.", "weight": 0},
			{"role": "user", "content": [{"type": "text", "text": "x"}], "name": "u"},
			{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "function": {"name": "f"}}]},
			{"role": "tool", "tool_call_id": "a"}, {"role": "assistant", "content": "ok"}]}`},
		want: `{"assistant": [2, 4], "tool": [3], "calls": [[2, "a"]], "call_ids": ["a"], "call_names": ["f"], "results": [[2, "a"]], "tool_call_lists": [2], "tool_names": [],
			"roles": ["assistant", "system", "tool", "user"], "message_keys": ["content", "name", "role", "tool_call_id", "tool_calls", "weight"], "content_not_string": [1, 2, 3]}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, tc.format, Options{}, tc.lines...)
			got := docMap(t, d)["lookup"]
			// roles and the fields on the messages as given are checked
			// against the messages below (and in "message keys and content")
			withoutRoles := maps.Clone(got.(map[string]any))
			if tc.name != "message keys and content" {
				delete(withoutRoles, "roles")
				delete(withoutRoles, "message_keys")
				delete(withoutRoles, "content_not_string")
			}
			if diff := cmp.Diff(js(t, tc.want), any(withoutRoles)); diff != "" {
				t.Errorf("lookup (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(lookupOf(t, list(t, d, "messages"), list(t, d, "tools")), got); diff != "" {
				t.Errorf("lookup against the messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLookupMatchesMessages checks that each document's lookup is what its
// normalized messages say, on every input fixture of the built-in packs (all
// formats) and on the shared sample data when it is present.
func TestLookupMatchesMessages(t *testing.T) {
	check := func(t *testing.T, name string, docs []*Document) {
		for _, d := range docs {
			if diff := cmp.Diff(lookupOf(t, list(t, d, "messages"), list(t, d, "tools")), docMap(t, d)["lookup"]); diff != "" {
				t.Errorf("%s:%d: lookup (-from the messages +got):\n%s", name, d.Line, diff)
			}
		}
	}
	t.Run("fixtures", func(t *testing.T) {
		files, err := filepath.Glob("../../policies/*/tests/*/*.jsonl")
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixtures: %v", err)
		}
		formats := map[Format]int{}
		for _, path := range files {
			var objs []objRecord
			for _, rec := range readRecords(t, path) {
				v, err := astjson.Decode(rec.Data)
				if o, ok := v.(ast.Object); err == nil && ok {
					objs = append(objs, objRecord{rec.Line, o})
				}
			}
			if len(objs) == 0 {
				continue
			}
			if f, ok := Detect(objs[0].obj); ok {
				formats[f]++
				check(t, path, buildAll(f, path, objs))
			}
		}
		for _, f := range []Format{Chat, Contract, ProxyLog, PiSession} {
			if formats[f] == 0 {
				t.Errorf("no fixture of format %s", f)
			}
		}
	})
	t.Run("sample data", func(t *testing.T) {
		for rel, rf := range loadRealData(t) {
			check(t, rel, rf.docs)
		}
	})
}

// lookupOf computes the lookup member from normalized messages and tools (as
// Go values), independently of lookupTerm, as docs/document.md defines it.
// Sets come out as sorted lists, the way ast.JSON renders them.
func lookupOf(t testing.TB, ms, tools []any) any {
	t.Helper()
	assistant, tool := []any{}, []any{}
	calls, ids, names, results := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	lists, oddText := []any{}, []any{}
	roles, msgKeys := map[string]any{}, map[string]any{}
	for i, x := range ms {
		m := x.(map[string]any)
		roles[key(t, m["role"])] = m["role"]
		switch m["role"] {
		case "assistant":
			assistant = append(assistant, float64(i))
		case "tool":
			tool = append(tool, float64(i))
			if id, ok := m["tool_call_id"]; ok {
				results[key(t, []any{m["turn"], id})] = []any{m["turn"], id}
			}
		}
		for _, c := range m["tool_calls"].([]any) {
			id, name := c.(map[string]any)["id"], c.(map[string]any)["name"]
			calls[key(t, []any{float64(i), id})] = []any{float64(i), id}
			ids[key(t, id)] = id
			names[key(t, name)] = name
		}
		if raw, ok := m["raw"].(map[string]any); ok && raw["tool_calls"] != nil {
			lists = append(lists, float64(i))
		}
		if raw, ok := m["raw"].(map[string]any); ok {
			for k := range raw {
				msgKeys[key(t, k)] = k
			}
			if _, ok := raw["content"].(string); !ok {
				oddText = append(oddText, float64(i))
			}
		}
	}
	toolNames := map[string]any{}
	for _, x := range tools {
		if name, ok := x.(map[string]any)["name"]; ok {
			toolNames[key(t, name)] = name
		}
	}
	return map[string]any{"assistant": assistant, "tool": tool, "calls": sorted(t, calls), "call_ids": sorted(t, ids),
		"call_names": sorted(t, names), "results": sorted(t, results), "tool_call_lists": lists, "roles": sorted(t, roles),
		"tool_names": sorted(t, toolNames), "message_keys": sorted(t, msgKeys), "content_not_string": oddText}
}

// key is a value's JSON, for deduplicating; sorted orders a set's members
// as ast.JSON does, by ast ordering of their decoded values.
func key(t testing.TB, v any) string {
	t.Helper()
	return string(mustJSON(t, v))
}

func sorted(t testing.TB, set map[string]any) []any {
	t.Helper()
	out := make([]any, 0, len(set))
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return astLess(t, keys[i], keys[j]) })
	for _, k := range keys {
		out = append(out, set[k])
	}
	return out
}

func astLess(t testing.TB, a, b string) bool {
	t.Helper()
	return obj(t, `{"v":`+a+`}`).Compare(obj(t, `{"v":`+b+`}`)) < 0
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SkipLookup leaves the lookup member out and nothing else.
func TestSkipLookup(t *testing.T) {
	line := `{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}]}]}`
	build := func(skip bool) ast.Object {
		v, err := astjson.Decode([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		return NewBuilder(Chat, "f.jsonl", Options{SkipLookup: skip}).Add(1, v.(ast.Object)).Value
	}
	with, without := build(false), build(true)
	if without.Get(ast.StringTerm("lookup")) != nil {
		t.Errorf("lookup built with SkipLookup")
	}
	if with.Get(ast.StringTerm("lookup")) == nil {
		t.Fatalf("lookup missing without SkipLookup")
	}
	var keysWith, keysWithout []string
	for _, k := range build(false).Keys() {
		if s := string(k.Value.(ast.String)); s != "lookup" {
			keysWith = append(keysWith, s)
		}
	}
	for _, k := range without.Keys() {
		keysWithout = append(keysWithout, string(k.Value.(ast.String)))
	}
	if diff := cmp.Diff(keysWith, keysWithout); diff != "" {
		t.Errorf("members (-with lookup +without):\n%s", diff)
	}
}

// TestRolesTermManyRoles: the lookup's set of roles is every distinct role
// once, whether a conversation has a few (gathered by a scan) or a hostile
// record gives each message its own (gathered in a map past a handful).
func TestRolesTermManyRoles(t *testing.T) {
	for _, n := range []int{0, 1, 16, 17, 40} {
		var ms []message
		want := ast.NewSet()
		for i := range 2 * n {
			r := fmt.Sprintf("role-%d", i%max(n, 1))
			ms = append(ms, message{role: r})
			want.Add(ast.StringTerm(r))
		}
		got := rolesTerm(ms).Value.(ast.Set)
		if got.Compare(want) != 0 {
			t.Errorf("%d distinct roles: got %v, want %v", n, got, want)
		}
	}
}
