package policy_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// The built-in packs run OPA on a contract record only when the contract
// pack's gate (policies/contract/gate.yaml) fires: not on a record that
// meets the contract, on one that breaks it. The messages of a document
// OPA may skip are views. (cmd/chatlint's TestContractGateSameFindings
// holds the findings equal.)
func TestContractGateKeepsOPAOff(t *testing.T) {
	eng := builtinEngine(t)
	if !eng.MessageViewsFor(string(document.Contract), "") {
		t.Error("contract records: messages are not views")
	}
	msgs := `"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]`
	tests := []struct {
		name, record string
		want         bool
	}{
		{"clean", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10T12:34:56Z", ` + msgs + `}`, false},
		{"clean, Unix time and metadata", `{"conversation_id": "", "user_id": "", "timestamp": 1770726896, ` + msgs + `, "metadata": {}, "x": 1}`, false},
		{"clean, no messages", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", "messages": []}`, false},
		{"user_id a number", `{"conversation_id": "c", "user_id": 1, "timestamp": "2026-02-10", ` + msgs + `}`, true},
		{"February 30", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-30", ` + msgs + `}`, true},
		{"metadata null", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", ` + msgs + `, "metadata": null}`, true},
		{"a message with a name", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", "messages": [{"role": "user", "content": "Hi", "name": "ann"}]}`, true},
		{"a message without content", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", "messages": [{"role": "user"}]}`, true},
		{"a message a string", `{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", "messages": ["Hi"]}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ast.ParseTerm(tc.record)
			if err != nil {
				t.Fatal(err)
			}
			d := document.NewBuilder(document.Contract, "f.jsonl", document.Options{}).Add(1, v.Value.(ast.Object))
			if got := eng.NeedsRego(d); got != tc.want {
				t.Errorf("OPA runs: %v, want %v", got, tc.want)
			}
		})
	}
}
