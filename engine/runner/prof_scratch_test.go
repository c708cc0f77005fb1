package runner

import (
	"context"
	"os"
	"testing"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

func TestScratchProfile(t *testing.T) {
	file := os.Getenv("SCRATCH")
	if file == "" {
		t.Skip()
	}
	var packs []*policy.Pack
	if os.Getenv("FLOOR") == "" {
		packs, _ = policy.LoadBuiltin(policy.BuiltinSource{FS: policies.FS, Prefix: "p"}, policy.BuiltinSource{FS: rules.FS, Prefix: "r"})
	}
	e, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Engine: e, Opts: Options{Workers: 1}}
	r.Run(context.Background(), []Input{{Name: "g", Path: file}}, func(finding.Finding) {})
}
