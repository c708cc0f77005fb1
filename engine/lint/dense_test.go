package lint

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

// TestNonObjectLineNotBuilt: a line that is not a JSON object is validated
// and reported, never built: a 60 MB array of zeros, decoded whole by
// detection and again by the check, peaked check at 1.36 GB (1.2 GB in
// fix). Errors stay those of the full decoder.
func TestNonObjectLineNotBuilt(t *testing.T) {
	dense := []byte("[" + strings.Repeat("0,", 3_000_000) + "0]")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, ok := Detect("d.jsonl", jsonl.Record{Line: 1, Data: dense})
	_, f := Decode("d.jsonl", jsonl.Record{Line: 1, Data: dense})
	runtime.ReadMemStats(&after)
	if ok || f == nil || f.Message != "a record must be a JSON object, not an array" {
		t.Fatalf("Detect ok %v, Decode finding %+v", ok, f)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("a 6 MB array line allocated %d KB to be refused", grew>>10)
	}
	for _, tt := range []struct{ data, want string }{
		{`[1, 2,]`, "invalid JSON: invalid character ']' looking for beginning of value (byte 7)"},
		{`"text"`, "a record must be a JSON object, not a string"},
		{` null`, "a record must be a JSON object, not null"},
		{`-1.5`, "a record must be a JSON object, not a number"},
		{`[1e999999]`, "the record was not checked: number 1e999999 is out of the range the policy engine evaluates (byte 2)"},
	} {
		if _, f := Decode("d.jsonl", jsonl.Record{Line: 1, Data: []byte(tt.data)}); f == nil || f.Message != tt.want {
			t.Errorf("%s: %+v, want %q", tt.data, f, tt.want)
		}
	}
}

// denseShapes are records holding a long list of numbers where no rule
// reads it: an unknown member of a message, a message's content, a tool
// call's arguments object.
func denseShapes(n int) map[string]string {
	list := "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]"
	return map[string]string{
		"a message's member": `{"messages":[{"role":"user","content":"x","extra":` + list + `},{"role":"assistant","content":"ok"}]}`,
		"content as parts":   `{"messages":[{"role":"user","content":` + list + `},{"role":"assistant","content":"ok"}]}`,
		"a call's arguments": `{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{"a":` + list + `}}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`,
	}
}

// rolePack reads the messages' roles and texts, and nothing of raw: its
// documents are built from the projected record.
const rolePack = `package chatlint.t

# METADATA
# custom:
#   id: nobody
# description: a message of role nobody
deny contains {"rule": "nobody", "msg": m.text, "message_index": i} if {
	some i, m in input.messages
	m.role == "nobody"
}
`

// TestDenseValuesNotBuilt: a long list of numbers inside a record that no
// rule reads is neither built by detection (it read the first record whole,
// 1.7 GB of allocations for a 60 MB one) nor by the check, whose projection
// stubs a message's members the builder does not read, keeps a content
// list of numbers as its first part and an arguments object as "present".
// A 6 MB record may cost detection 1 MB and the check its own size; the
// findings are those of the whole record's check.
func TestDenseValuesNotBuilt(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "t", Rego: []policy.File{{Name: "t.rego", Source: []byte(rolePack)}}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{})
	whole := New(eng, document.Options{Fields: document.AllFields(), MaxValues: -1}) // unbounded: it builds the dense values
	for name, data := range denseShapes(3_000_000) {
		rec := jsonl.Record{Line: 1, Data: []byte(data)}
		var f document.Format
		var obj ast.Object
		var ok bool
		if n := allocated(func() { f, obj, _, ok = Detect("d.jsonl", rec) }); n > 1<<20 {
			t.Errorf("%s: detecting a %d MB record allocated %d KB", name, len(data)>>20, n>>10)
		}
		if !ok || f != document.Chat || obj != nil {
			t.Fatalf("%s: Detect %q ok %v, obj handed over %v", name, f, ok, obj != nil)
		}
		u := Unit{File: "d.jsonl", Format: f, Records: []jsonl.Record{rec}}
		var got []finding.Finding
		if n := allocated(func() { got = l.Check(context.Background(), u) }); n > uint64(len(data)) {
			t.Errorf("%s: checking a %d MB record allocated %d MB", name, len(data)>>20, n>>20)
		}
		if testing.Short() {
			continue
		}
		if diff := cmp.Diff(whole.Check(context.Background(), u), got); diff != "" {
			t.Errorf("%s: findings differ from the whole record's (-whole +projected):\n%s", name, diff)
		}
	}
	// A small one, checked whole for each shape with findings to compare.
	for name, data := range denseShapes(200) {
		data = strings.Replace(data, `"role":"user"`, `"role":"nobody"`, 1)
		u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(data)}}}
		got, want := l.Check(context.Background(), u), whole.Check(context.Background(), u)
		if len(want) == 0 || !cmp.Equal(want, got) {
			t.Errorf("%s: findings %v, whole record's %v", name, got, want)
		}
	}
}

// TestDenseValuesNotBuiltBuiltinPacks: under the built-in check packs (a
// default check), a long list of numbers in a message's member no rule
// names is not built, although the integrity pack reads the record's raw
// form: its rules test raw and raw.messages only with type and not_empty,
// which a stand-in of the value's kind and emptiness answers (Fields.WithRaw).
// Before, every record was decoded whole (a 60 MB one peaked check at
// 955 MB). The lists in content parts and in a call's arguments are still
// built: message-repeated compares a message's raw content and tool_calls
// with the previous message's. The findings are the whole record's in
// every shape. Under the default --max-record-values the two that are
// built are record-too-dense, the member's is not.
func TestDenseValuesNotBuiltBuiltinPacks(t *testing.T) {
	eng, err := policy.Compile(context.Background(), builtinCheckPacks(t), policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bounded := New(eng, document.Options{})
	l := New(eng, document.Options{MaxValues: -1})
	whole := New(eng, document.Options{Fields: document.AllFields(), MaxValues: -1}) // unbounded: it builds the dense values
	for name, data := range denseShapes(3_000_000) {
		u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(data)}}}
		dense := slices.ContainsFunc(bounded.Check(context.Background(), u), func(f finding.Finding) bool { return f.Rule == RuleTooDense })
		if want := name != "a message's member"; dense != want {
			t.Errorf("%s: record-too-dense %v under the default bound, want %v", name, dense, want)
		}
		var got []finding.Finding
		n := allocated(func() { got = l.Check(context.Background(), u) })
		if bounded := name == "a message's member"; bounded && n > uint64(len(data)) {
			t.Errorf("%s: checking a %d MB record allocated %d MB", name, len(data)>>20, n>>20)
		}
		if testing.Short() {
			continue
		}
		if diff := cmp.Diff(whole.Check(context.Background(), u), got); diff != "" {
			t.Errorf("%s: findings differ from the whole record's (-whole +projected):\n%s", name, diff)
		}
	}
	// Small records with findings of the rules that read raw: each shape
	// with a tools list that is not a list, a message's tool_calls that is
	// not one, an empty messages list, a repeated message.
	for name, data := range denseShapes(200) {
		for _, edit := range [][2]string{
			{`{"messages":`, `{"tools":{"a":1},"messages":`},
			{`"role":"user"`, `"role":"assistant","tool_calls":{"x":[1,2]}`},
			{`{"role":"assistant","content":"ok"}`, `{"role":"user","content":"x"}`},
		} {
			d := strings.Replace(data, edit[0], edit[1], 1)
			u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(d)}}}
			got, want := l.Check(context.Background(), u), whole.Check(context.Background(), u)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s: findings (-whole +projected):\n%s", name, edit[1], diff)
			}
		}
	}
	for _, d := range []string{`{"messages":[]}`, `{"messages":{}}`, `{"messages":[{"role":"user","content":"x","extra":{}}],"tools":[]}`} {
		u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(d)}}}
		if diff := cmp.Diff(whole.Check(context.Background(), u), l.Check(context.Background(), u)); diff != "" {
			t.Errorf("%s: findings (-whole +projected):\n%s", d, diff)
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestProjectedMessageMembers: the members of a message the chat builder
// reads in any of the conventions chat records carry (OpenAI, Anthropic
// blocks, pi / OpenClaw's camelCase) are kept by the projection, and every
// other member stubbed, so a document that leaves out only raw is the one
// the whole record gives.
func TestProjectedMessageMembers(t *testing.T) {
	notRaw := document.NewFields(func(path ...string) bool { return !slices.Contains(path, "raw") })
	opts := document.Options{Fields: notRaw}
	for _, rec := range []string{
		`{"messages":[{"role":"user","content":"x","extra":[1,2,3],"name":"u"},{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"f","arguments":{"a":1}}],"stopReason":"toolUse"},{"role":"assistant","content":"y","stop_reason":"end_turn"},{"role":"toolResult","toolCallId":"c1","isError":false,"content":"r"},{"role":"tool","tool_use_id":"c1","content":"r"},{"role":"tool","toolUseId":"c1","content":[0,1]}]}`,
		`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},"extra":{"x":[0,0]}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","is_error":true,"content":"no"},{"type":"text","text":"next"}],"metadata":{"a":1}},{"role":"tool","tool_call_id":"c1","content":"r"}]}`,
		`{"messages":[{"role":"assistant","content":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>","weight":0},{"role":"tool","content":"<tool_result>ok</tool_result>"}]}`,
	} {
		whole, _ := Decode("f", jsonl.Record{Data: []byte(rec)})
		proj, _ := decode("f", jsonl.Record{Data: []byte(rec)}, document.Projection(document.Chat, opts), 0)
		want := document.NewBuilder(document.Chat, "f", opts).Add(1, whole)
		got := document.NewBuilder(document.Chat, "f", opts).Add(1, proj)
		if ast.Compare(document.Plain(got.Materialized()), document.Plain(want.Materialized())) != 0 {
			t.Errorf("%s:\nprojected %v\nwhole     %v", rec, got.Materialized(), want.Materialized())
		}
	}
}

// builtinCheckPacks are the built-in packs check runs: every one but the
// cleanup packs of fix.
func builtinCheckPacks(t *testing.T) []*policy.Pack {
	t.Helper()
	all, err := policy.LoadBuiltin(policy.BuiltinSource{FS: policies.FS, Prefix: "builtin:policies"}, policy.BuiltinSource{FS: rules.FS, Prefix: "builtin:rules"})
	if err != nil {
		t.Fatal(err)
	}
	var packs []*policy.Pack
	for _, p := range all {
		if p.Kind != policy.KindCleanup {
			packs = append(packs, p)
		}
	}
	return packs
}
