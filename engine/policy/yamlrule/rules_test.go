package yamlrule

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// compileRules compiles one YAML rule file of the pack "team".
func compileRules(t *testing.T, src string) []*Rule {
	t.Helper()
	rs, err := Compile(File{Name: "r.yaml", Source: []byte(src)}, "team")
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return rs
}

// chatDoc is the chat document of one record.
func chatDoc(t *testing.T, record string) *document.Document {
	t.Helper()
	v, err := astjson.Decode([]byte(record))
	if err != nil {
		t.Fatalf("decode %s: %v", record, err)
	}
	return document.NewBuilder(document.Chat, "data.jsonl", document.Options{}).Add(7, v.(ast.Object))
}
