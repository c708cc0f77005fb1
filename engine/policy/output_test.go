package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A finding a pack produces malformed is an error naming the pack and the
// rule; the pack's well-formed findings on the same document are kept.
func TestMalformedOutput(t *testing.T) {
	const head = "package chatlint.team\n\n# METADATA\n# description: d\n# custom:\n#   id: ok\ndeny contains {\"rule\": \"ok\", \"msg\": \"fine\"} if true\n\n"
	tests := []struct {
		name, body, want string
	}{
		{"unknown rule id", `deny contains {"rule": "nope", "msg": "x"} if true`,
			`pack team: rule "nope" is not declared (no METADATA with custom.id "nope")`},
		{"no rule id", `deny contains {"msg": "x"} if true`, `pack team: a finding has no rule id: {"msg":"x"}`},
		{"msg not a string", `deny contains {"rule": "ok", "msg": 3} if true`, "pack team: rule ok: a finding has msg 3, not a non-empty string"},
		{"no msg", `deny contains {"rule": "ok"} if true`, "pack team: rule ok: a finding has no msg"},
		{"unknown severity", `deny contains {"rule": "ok", "msg": "x", "severity": "fatal"} if true`,
			`pack team: rule ok: a finding has severity "fatal" (want error, warning or info)`},
		{"not an object", `deny contains "oops" if true`, `pack team: a finding must be an object, not "oops"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustCompile(t, Options{}, packOf(t, map[string]string{"t.rego": head + tc.body + "\n"}))
			hits, err := e.Evaluate(context.Background(), chatDoc(t, `{"messages":[]}`))
			var oe *OutputError
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want an *OutputError", err)
			}
			if diff := cmp.Diff([]string{tc.want}, oe.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if len(hits) != 1 || hits[0].Rule != "ok" {
				t.Errorf("hits = %+v, want the well-formed one", hits)
			}
		})
	}
}

// custom.formats declares the formats a Rego rule applies to: its findings
// on documents of other formats are dropped.
func TestRegoFormats(t *testing.T) {
	src := "package chatlint.team\n\n# METADATA\n# description: d\n# custom:\n#   id: only-contract\n#   formats: [contract]\ndeny contains {\"rule\": \"only-contract\", \"msg\": \"x\"} if true\n"
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"t.rego": src}))
	hits, err := e.Evaluate(context.Background(), chatDoc(t, `{"messages":[]}`))
	if err != nil || len(hits) != 0 {
		t.Errorf("chat document: hits %+v, err %v; want none", hits, err)
	}
	if got := e.Rules()[0].Formats; !cmp.Equal(got, []string{"contract"}) {
		t.Errorf("Formats = %v", got)
	}
	bad := "package chatlint.team\n\n# METADATA\n# description: d\n# custom:\n#   id: x\n#   formats: [csv]\ndeny contains {\"rule\": \"x\", \"msg\": \"x\"} if true\n"
	if _, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{"t.rego": bad})}, Options{}); err == nil {
		t.Error("an unknown format in custom.formats compiles")
	}
}
