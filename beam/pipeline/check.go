package pipeline

import (
	"context"
	"encoding/json"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/lint"
)

// CheckFn checks units with the same call `chatlint check` makes
// (lint.Linter.Check) and emits their findings as JSON lines, each with a
// tally for the summary.
type CheckFn struct {
	Config Config

	linter *lint.Linter
	gate   *gate.Gate
}

// Setup builds the instance's linter. The engine is compiled once per
// worker process and shared; a linter is not safe for concurrent use, and
// the runner calls one DoFn instance from one goroutine at a time.
func (fn *CheckFn) Setup(ctx context.Context) error {
	eng, err := fn.Config.engine(ctx)
	if err != nil {
		return err
	}
	fn.linter = lint.New(eng, fn.Config.documentOptions())
	fn.gate, err = fn.Config.Settings.gate()
	return err
}

// ProcessElement checks one unit. A record that is not JSON, or a policy
// that fails on it, is a finding, never an error of the bundle.
func (fn *CheckFn) ProcessElement(ctx context.Context, u Unit, emitFinding func(string), emitTally func(Tally)) {
	out := output{finding: emitFinding, tally: emitTally, gate: fn.gate}
	for _, f := range fn.linter.Check(ctx, u.lint()) {
		out.emit(f)
	}
}

// marshal gives a finding the JSON of `chatlint check -o json`, on one line.
func marshal(f finding.Finding) string {
	b, err := json.Marshal(f)
	if err != nil { // a Finding holds strings and numbers only
		panic(err)
	}
	return string(b)
}
