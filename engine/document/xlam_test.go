package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// An xLAM record: the query a user message, the answers one assistant
// message of calls (xlam-K), the tools read from their string with the
// parameters translated into a JSON Schema; the raw tool as given.
func TestXLAMRecord(t *testing.T) {
	d := one(t, XLAM, Options{}, `{"id": 5, "query": "Sum 3 and 4, then sort 5, 1.", "answers": "[{\"name\": \"add\", \"arguments\": {\"a\": 3, \"b\": 4}}, {\"name\": \"sort\", \"arguments\": {\"xs\": [5, 1]}}]", "tools": "[{\"name\": \"add\", \"description\": \"Add.\", \"parameters\": {\"a\": {\"type\": \"int\", \"description\": \"First.\"}, \"b\": {\"type\": \"float, optional\", \"default\": 0}}}, {\"name\": \"sort\", \"description\": \"Sort.\", \"parameters\": {\"xs\": {\"type\": \"List[int]\", \"description\": \"Numbers.\", \"default\": \"\"}, \"key\": {\"type\": \"Callable\"}}}]"}`)
	if d.ID != "5" {
		t.Errorf("id %q", d.ID)
	}
	got := project(list(t, d, "messages"), "index", "role", "text", "turn", "path")
	want := asMaps(t, js(t, `[
		{"index":0,"role":"user","text":"Sum 3 and 4, then sort 5, 1.","turn":-1,"path":"/query"},
		{"index":1,"role":"assistant","text":"","turn":1,"path":"/answers"}]`))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[1, "xlam-0", "add", {"a": 3, "b": 4}, "/answers", null], [1, "xlam-1", "sort", {"xs": [5, 1]}, "/answers", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	tools := project(list(t, d, "tools"), "name", "path", "parameters")
	wantTools := asMaps(t, js(t, `[
		{"name":"add","path":"/tools","parameters":{"type":"object","properties":{"a":{"type":"integer","description":"First."},"b":{"type":"number","default":0}},"required":["a"]}},
		{"name":"sort","path":"/tools","parameters":{"type":"object","properties":{"xs":{"type":"array","items":{"type":"integer"},"description":"Numbers."},"key":{}},"required":["key","xs"]}}]`))
	if diff := cmp.Diff(wantTools, tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	raw := list(t, d, "tools")[0].(map[string]any)["raw"].(map[string]any)
	if _, schema := raw["parameters"].(map[string]any)["type"]; schema {
		t.Errorf("the raw tool is not the one given: %v", raw)
	}
}

// Detection claims a record with a query string and tools and answers, and
// no other: a chat record with a query member stays chat.
func TestXLAMDetect(t *testing.T) {
	for in, want := range map[string]Format{
		`{"query": "q", "tools": "[]", "answers": "[]"}`:                 XLAM,
		`{"query": "q", "tools": [], "answers": []}`:                     XLAM,
		`{"query": "q", "answers": "[]"}`:                                "",
		`{"query": "q", "tools": "[]", "answers": "[]", "messages": []}`: Chat,
		`{"query": ["q"], "tools": "[]", "answers": "[]"}`:               "",
	} {
		v, err := astjson.Decode([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := Detect(v.(ast.Object))
		if got != want {
			t.Errorf("%s: detected %q, want %q", in, got, want)
		}
	}
}
