package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// repeatPack compares each message's raw content and tool calls with the
// previous message's, as the integrity pack's message-repeated does, and
// reads nothing else of raw.
const repeatPack = `rules:
  - id: repeated
    severity: warning
    description: a message repeats the one before it
    given: messages[*]
    where:
      role: {not_empty: true}
      $previous.role: {same_as: role}
      $same_content: present
      $same_calls: present
    let:
      same_content:
        cases:
          - when: {raw.content: absent, $previous.raw.content: absent}
            text: 'yes'
          - when: {raw.content: {same_as: $previous.raw.content}}
            text: 'yes'
      same_calls:
        cases:
          - when: {raw.tool_calls: absent, $previous.raw.tool_calls: absent}
            text: 'yes'
          - when: {raw.tool_calls: {same_as: $previous.raw.tool_calls}}
            text: 'yes'
    cases:
      - message: 'message {{index}} repeats message {{$previous.index}}'
`

// TestDenseValuesComparedNotBuilt: a value a rule only compares with the
// same path of the previous message (same_as) is decoded as a stand-in
// holding a digest of it: 6 MB of numbers in a call's arguments, which the
// builder reads only as "present", cost the check less than the record's
// size (the value was built whole: 30 million terms for a 60 MB one). The
// findings are the whole record's, on repeats written in other ways (key
// order, number forms, escapes), on near repeats, on numbers OPA compares
// as float64s (the record is then decoded without stand-ins) and on
// content parts read as messages (built whole, compared with stand-ins).
func TestDenseValuesComparedNotBuilt(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "t", YAML: []policy.File{{Name: "r.yaml", Source: []byte(repeatPack)}}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{})
	whole := New(eng, document.Options{Fields: document.AllFields(), MaxValues: -1}) // unbounded: it builds the dense values
	check := func(name, data string) []finding.Finding {
		t.Helper()
		u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(data)}}}
		got, want := l.Check(context.Background(), u), whole.Check(context.Background(), u)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: findings (-whole +projected):\n%s", name, diff)
		}
		return got
	}
	list := "[" + strings.TrimSuffix(strings.Repeat("0,", 3_000_000), ",") + "]"
	call := func(args string) string {
		return `{"id":"c1","type":"function","function":{"name":"f","arguments":` + args + `}}`
	}
	dense := `{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[` + call(`{"a":`+list+`}`) + `]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`
	u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: []byte(dense)}}}
	if n := allocated(func() { l.Check(context.Background(), u) }); n > uint64(len(dense)) {
		t.Errorf("checking a %d MB record allocated %d MB", len(dense)>>20, n>>20)
	}
	check("dense", dense)

	for _, c := range []struct {
		name, a, b string
		repeated   bool
	}{
		{"same calls", call(`{"a":[1,2],"b":"x"}`), call(`{"a":[1,2],"b":"x"}`), true},
		{"members in another order", call(`{"a":[1,2],"b":"x"}`), call(`{"b":"x","a":[1,2]}`), true},
		{"numbers written otherwise", call(`{"a":[1,20]}`), call(`{"a":[1.0,2e1]}`), true},
		{"escapes", call(`{"a":["é"]}`), call(`{"a":["\u00e9"]}`), true},
		{"a key given twice", call(`{"a":[1],"a":[2]}`), call(`{"a":[2]}`), true},
		{"another number", call(`{"a":[1,2]}`), call(`{"a":[1,3]}`), false},
		{"another member", call(`{"a":[1,2]}`), call(`{"a":[1,2],"c":null}`), false},
		{"an object and a list", call(`{"a":{"0":1}}`), call(`{"a":[1]}`), false},
		{"float forms", call(`{"a":[0.10]}`), call(`{"a":[0.1000000000000000000000000010]}`), true},
		{"float form and not", call(`{"a":[0.10]}`), call(`{"a":[0.1]}`), true},
		{"empty", call(`{}`), call(`{}`), true},
		{"empty and not", call(`{}`), call(`{"a":[]}`), false},
	} {
		data := `{"messages":[{"role":"assistant","tool_calls":[` + c.a + `]},{"role":"assistant","tool_calls":[` + c.b + `]}]}`
		got := check(c.name, data)
		if (len(got) > 0) != c.repeated {
			t.Errorf("%s: findings %v, want a repeat %v", c.name, got, c.repeated)
		}
	}
	// A content part read as a message (an Anthropic tool_result block)
	// has its raw built whole; the message before it has stand-ins.
	check("a content part's calls", `{"messages":[{"role":"tool","tool_calls":[`+call(`{"a":[1]}`)+`],"content":"r"},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","tool_calls":[`+call(`{"a":[1.0]}`)+`],"content":"r"}]}]}`)
}
