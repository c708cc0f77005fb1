package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// sessionHits compiles one YAML rule file and evaluates it over one proxy-log
// session given as its lines, returning the hits as "severity target
// message".
func sessionHits(t *testing.T, src string, lines ...string) []string {
	t.Helper()
	b := document.NewBuilder(document.ProxyLog, "s.jsonl", document.Options{})
	for i, l := range lines {
		v, err := astjson.Decode([]byte(l))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		b.Add(i+1, v.(ast.Object))
	}
	return yamlHitLines(t, src, b.Finish())
}

// target: message names only the message of a call; json: array holds for
// the JSON text of a list.
func TestYAMLCaseTargetAndJSONArray(t *testing.T) {
	record := `{"tools":"[1]","messages":[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":"[]"}},{"id":"b","function":{"name":"f","arguments":"{}"}}]}]}`
	src := `rules:
  - id: r
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    where: {arguments: {json: array}}
    cases:
      - message: 'call {{id}}'
        target: message
  - id: s
    severity: error
    description: d
    given: document
    where: {raw.tools: {json: array}, raw.messages: {not: {json: array}}}
    cases:
      - message: 'tools {{q raw.tools}}'
`
	got := relHits(t, src, record)
	want := []string{"error /messages/0 call a", `error  tools "[1]"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	bad := "rules:\n  - {id: r, severity: error, description: d, given: 'messages[*]', cases: [{message: m, target: tool}]}\n"
	if _, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{"r.yaml": bad})}, Options{}); err == nil || !strings.Contains(err.Error(), "target: want message") {
		t.Errorf("target: tool: error %v", err)
	}
}

// The forms the session rules use, in a team's rules over a proxy-log
// session: joins ordered over entries with their last partner and the
// largest value of a path, instants, extends and the filters.
func TestYAMLSessionForms(t *testing.T) {
	line := func(ts, sid string, roles ...string) string {
		var msgs []string
		for _, r := range roles {
			msgs = append(msgs, `{"role":"`+r+`","content":"x"}`)
		}
		return `{"timestamp":` + ts + `,"session_id":` + sid + `,"request":{"messages":[` + strings.Join(msgs, ",") + `]}}`
	}
	session := []string{
		line(`"2024-05-01T10:00:00+02:00"`, `"s1"`, "user"),
		line(`"2024-05-01T07:59:00Z"`, `"s1"`, "user", "assistant", "user"),
		`{"timestamp":"later","session_id":"s1","request":{"messages":"none"}}`,
		line(`1760696744462`, `"<s2>"`, "user", "assistant"),
		line(`1760696744461`, `"s1"`, "user", "user"),
	}
	tests := []struct {
		name, rule string
		want       []string
	}{{
		name: "order before over entries, last, nth and json",
		rule: `
    given: entries[*]
    let:
      earlier: {join: 'entries[*]', order: before}
    where: {$earlier.count: {greater_than: 0}}
    cases:
      - message: 'entry {{nth $index}} follows entry {{nth $earlier.last.index}} ({{json $earlier.last.session_id}}, {{$earlier.count}} before)'`,
		want: []string{
			`error /entries/1 entry 2 follows entry 1 ("s1", 1 before)`,
			`error /entries/2 entry 3 follows entry 2 ("s1", 2 before)`,
			`error /entries/3 entry 4 follows entry 3 ("s1", 3 before)`,
			`error /entries/4 entry 5 follows entry 4 ("\u003cs2\u003e", 4 before)`,
		},
	}, {
		name: "order after with a where, max over the partners and on a max",
		rule: `
    given: entries[*]
    let:
      later: {join: 'entries[*]', where: {valid: true}, order: after}
      requests: {join: 'entries[*]', where: {valid: true}}
      longest: {join: 'entries[*]', where: {valid: true}, on: {$requests.max.message_count: message_count}}
    where: {valid: true, $later.count: 0}
    cases:
      - message: '{{message_count}} of at most {{$requests.max.message_count}}, first reached by entry {{nth $longest.first.index}}, last by entry {{nth $longest.last.index}}'`,
		want: []string{"error /entries/4 2 of at most 3, first reached by entry 2, last by entry 2"},
	}, {
		name: "instants of one kind compared",
		rule: `
    given: entries[*]
    let:
      earlier: {join: 'entries[*]', order: before}
      now: {instant: timestamp}
      then: {instant: $earlier.last.timestamp}
    where:
      $now.kind: {same_as: $then.kind}
      $now.value: {at_most: $then.value}
    cases:
      - message: '{{json timestamp}} ({{$now.kind}} {{$now.value}}) is not after {{json $earlier.last.timestamp}}'`,
		want: []string{
			`error /entries/1 "2024-05-01T07:59:00Z" (time 1714550340000000000) is not after "2024-05-01T10:00:00+02:00"`,
			`error /entries/4 1760696744461 (number 1760696744461) is not after 1760696744462`,
		},
	}, {
		name: "extends with an equivalence, words",
		rule: `
    given: entries[*]
    let:
      before: {join: 'entries[*]', where: {valid: true}, order: before}
    where: {valid: true, $before.count: {greater_than: 0}}
    unless:
      roles: {extends: {list: $before.last.roles, equivalent: [{earlier: [Ac], later: [U]}]}}
    cases:
      - message: '[{{words $before.last.roles}}] -> [{{words roles}}]'`,
		want: []string{"error /entries/3 [U Ac U] -> [U Ac]"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "rules:\n  - id: r\n    severity: error\n    description: d" + tt.rule + "\n"
			got := sessionHits(t, src, session...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
		})
	}
}
