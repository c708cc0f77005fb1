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
	var err error
	if fn.linter, err = fn.Config.linter(ctx); err != nil {
		return err
	}
	fn.gate, err = fn.Config.Settings.gate()
	return err
}

// ProcessElement checks one unit. A record that is not JSON, or a policy
// that fails on it, is a finding, never an error of the bundle. When a
// dataset rule applies, it emits each document's facts for its file's
// dataset fold (dataset.go).
func (fn *CheckFn) ProcessElement(ctx context.Context, u Unit, emitFinding func(string), emitTally func(Tally), emitFact func(string, Fact)) {
	out := output{finding: emitFinding, tally: emitTally, gate: fn.gate}
	found, facts := fn.linter.CheckFacts(ctx, u.lint())
	for _, f := range found {
		out.emit(f)
	}
	for _, f := range facts {
		emitFact(u.File, Fact{Format: u.Format, Line: f.Line, Type: f.Type, Hash: f.Hash, Tokens: f.Tokens, Member: f.Member, Key: f.Key})
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
