package convert

// The calls into the rule engine (document, policy, builtin) are kept in this
// one file: that API is being reshaped into a per-record library, and convert
// should follow it in one place.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/policy"
)

// integrityEngine is the built-in integrity pack, compiled once.
type integrityEngine struct{ eng *policy.Engine }

func newIntegrityEngine(ctx context.Context) (*integrityEngine, error) {
	packs, err := builtin.Packs()
	if err != nil {
		return nil, err
	}
	for _, p := range packs {
		if p.Name == "integrity" {
			eng, err := policy.Compile(ctx, []*policy.Pack{p}, policy.Options{})
			if err != nil {
				return nil, err
			}
			return &integrityEngine{eng: eng}, nil
		}
	}
	return nil, fmt.Errorf("the built-in integrity pack is missing")
}

// hit is what the report writer needs of one finding.
type hit struct {
	Rule, Message, Path         string
	Error                       bool
	MessageIndex, ToolCallIndex int
	ToolIndex, EntryIndex       int
}

func hitsOf(hs []policy.Hit) []hit {
	out := make([]hit, len(hs))
	for i, h := range hs {
		out[i] = hit{Rule: h.Rule, Message: h.Message, Path: h.Path, Error: h.Severity.String() == "error",
			MessageIndex: indexOr(h.Target.Message()), ToolCallIndex: indexOr(h.Target.ToolCall()),
			ToolIndex: indexOr(h.Target.Tool()), EntryIndex: indexOr(h.Target.Entry())}
	}
	return out
}

// indexOr returns i when ok, else -1 (the element is not named).
func indexOr(i int, ok bool) int {
	if !ok {
		return -1
	}
	return i
}

// ExportProfile is the rule profile convert's integrity report uses: the
// strict checks of an export (every record has tools, every call a result,
// even one that ends a record), as the converter it replaces reports them.
const ExportProfile = "export"

// evaluator is one worker's handle on the engine.
type evaluator struct{ ev *policy.Evaluator }

func (e *integrityEngine) evaluator() *evaluator { return &evaluator{ev: e.eng.NewEvaluator()} }

// record evaluates the pack on a squashed record, read in the given
// tool-call mode ("inline" or "structured").
func (e *evaluator) record(ctx context.Context, rec *Record, file string, mode string) ([]hit, error) {
	v, err := astjson.Decode(ruleJSON(rec.Value()))
	if err != nil {
		return nil, err
	}
	doc := document.NewBuilder(document.Chat, file, document.Options{ToolCalls: mode, Profile: ExportProfile}).Add(1, v.(ast.Object))
	hs, err := e.ev.Evaluate(ctx, doc)
	return hitsOf(hs), err
}

// session evaluates the pack's session rules on a session's entries, read
// by the proxy-log adapter as check reads them: each entry goes to the
// builder as the proxy-log line it was read from, less what those rules do
// not read (ids and timestamps are validated before, tools and replies are
// the record's). It also returns each entry's role trace as the adapter
// tokenized it, which the report prints.
func (e *evaluator) session(ctx context.Context, entries []*Entry, file string) ([]hit, [][]string, error) {
	b := document.NewBuilder(document.ProxyLog, file, document.Options{Profile: ExportProfile})
	for _, en := range entries {
		msgs := make([]jsonv.Value, len(en.Messages))
		for i, m := range en.Messages {
			msgs[i] = m
		}
		line := &jsonv.Object{Members: []jsonv.Member{{Key: "request", Value: &jsonv.Object{Members: []jsonv.Member{{Key: "messages", Value: msgs}}}}}}
		if en.Status != 0 {
			line.Set("response", &jsonv.Object{Members: []jsonv.Member{{Key: "status", Value: json.Number(strconv.Itoa(en.Status))}}})
		}
		v, err := astjson.Decode(ruleJSON(line))
		if err != nil {
			return nil, nil, err
		}
		b.Add(en.Line, v.(ast.Object))
	}
	doc := b.Finish()
	if doc == nil {
		return nil, nil, nil
	}
	hs, err := e.ev.Evaluate(ctx, doc)
	var out []hit
	for _, h := range hitsOf(hs) {
		if sessionRules[h.Rule] {
			out = append(out, h)
		}
	}
	return out, doc.RoleTraces(), err
}
