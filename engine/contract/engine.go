package contract

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// This file is the only one that evaluates the policy engine (validate.go
// hands it to the runner): the contract pack decides whether a record's
// shape is right; the rest of the package counts and reports.

// PackName is the built-in pack holding the contract's rules.
const PackName = "contract"

// codes maps the pack's rule ids to the error codes of the contract's report.
var codes = map[string]string{
	"contract-schema":       CodeSchema,
	"contract-duplicate-id": CodeDuplicateID,
}

// Engine evaluates the contract pack; it is safe for concurrent use.
type Engine struct {
	eng *policy.Engine
}

// NewEngine compiles the built-in contract pack.
func NewEngine(ctx context.Context) (*Engine, error) {
	packs, err := builtin.Packs()
	if err != nil {
		return nil, err
	}
	for _, p := range packs {
		if p.Name == PackName {
			eng, err := policy.Compile(ctx, []*policy.Pack{p}, policy.Options{})
			if err != nil {
				return nil, err
			}
			return &Engine{eng: eng}, nil
		}
	}
	return nil, fmt.Errorf("the built-in %s pack is missing", PackName)
}

// evaluator checks records for one goroutine, on the documents the
// contract adapter builds. The pack reads only the record as "raw", so they
// are built RawOnly: normalizing messages for nothing cost validate-input a
// seventh of its time.
type evaluator struct {
	ev    *policy.Evaluator
	build document.Builder
	// key is the adapter's DatasetKey: the facts the dataset rule judges.
	key func(rec ast.Object) (member, value string)
	// maxValues bounds the values a line builds (Options.MaxValues).
	maxValues int
}

func (e *Engine) newEvaluator(file string, maxValues int) *evaluator {
	return &evaluator{ev: e.eng.NewEvaluator(), build: document.NewBuilder(document.Contract, file, document.Options{RawOnly: true}),
		key: document.Lookup(document.Contract).DatasetKey, maxValues: maxValues}
}

// checkDataset evaluates the pack's dataset rules over the fold of the
// valid records and returns their errors, in line order.
func (e *Engine) checkDataset(ctx context.Context, ds *lint.Dataset) ([]Error, error) {
	hits, err := e.eng.NewEvaluator().EvaluateDataset(ctx, string(document.Contract), "", ds.Document())
	if err != nil {
		return nil, fmt.Errorf("the %s pack's dataset rules: %w", PackName, err)
	}
	out := make([]Error, len(hits))
	for i, h := range hits {
		code := codes[h.Rule]
		if code == "" {
			code = h.Rule
		}
		out[i] = Error{Line: h.Line, Code: code, Message: h.Message}
	}
	slices.SortStableFunc(out, func(a, b Error) int { return cmp.Compare(a.Line, b.Line) })
	return out, nil
}

// check returns the code and message of the first rule the record breaks,
// or "" when it meets the contract. An error means the pack failed to run.
func (e *evaluator) check(ctx context.Context, line int, rec ast.Object) (code, msg string, err error) {
	hits, err := e.ev.Evaluate(ctx, e.build.Add(line, rec))
	if err != nil {
		return "", "", err
	}
	// One error per line: a record breaking several rules reports the first
	// by rule id, so the report does not depend on the order of hits.
	rule := ""
	for _, h := range hits {
		if rule == "" || h.Rule < rule {
			rule, msg = h.Rule, h.Message
		}
	}
	if rule == "" {
		return "", "", nil
	}
	if code = codes[rule]; code == "" {
		code = rule
	}
	return code, msg, nil
}
