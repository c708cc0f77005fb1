package builtins

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// FlagPointers is chatlint.truthy_keys(chatlint.json_payload(text), keys)
// for Go callers: the JSON Pointers of the members of a text's JSON payload
// (an object or array) whose key is one of keys (any case) and whose value
// is truthy; nil when the text is no such payload. convert --to openai uses
// it to note a result the integrity pack's tool-result-flagged will read as
// failed once its source's error flag is gone — the rule decides; this only
// lets convert say so beforehand, with the rule's own code.
func FlagPointers(text string, keys []string) []string {
	p, _ := JSONPayload(rego.BuiltinContext{}, ast.StringTerm(text))
	if p == nil {
		return nil
	}
	w := TruthyWalk{Want: make([]string, 0, len(keys))}
	for _, k := range keys {
		w.Want = append(w.Want, strings.ToLower(k))
	}
	w.Visit(p.Value)
	out := make([]string, len(w.Out))
	for i, t := range w.Out {
		out[i] = string(t.Value.(ast.String))
	}
	return out
}
