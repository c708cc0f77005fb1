// Package lint checks one unit of input against a compiled engine: a record of
// a per-record format, or every line of a session file. It decodes, builds the
// normalized document, evaluates the rules and places each hit on a line of
// the file. It has no goroutines, files or ordering: check, fix, convert and a
// distributed pipeline all call it the same way.
package lint

import (
	"context"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// Linter checks units one at a time. It is not safe for concurrent use:
// make one per goroutine from the same engine.
type Linter struct {
	ev   *policy.Evaluator
	opts document.Options
}

// New returns a Linter over a compiled engine.
func New(eng *policy.Engine, opts document.Options) *Linter {
	return &Linter{ev: eng.NewEvaluator(), opts: opts}
}

// Unit is what one call to Check checks: one record of a per-record format,
// or the records of a whole session file, in order.
type Unit struct {
	File string
	// Format is the file's format; "" when it matched none, in which case
	// only syntax is checked.
	Format  document.Format
	Records []jsonl.Record
	// First, when not nil, is Records[0] already decoded (the reader decodes
	// a file's first record to detect its format), so it is not decoded twice.
	First ast.Object
}

// Check returns the findings of one unit, sorted.
func (l *Linter) Check(ctx context.Context, u Unit) []finding.Finding {
	var out []finding.Finding
	if len(u.Records) == 0 {
		return out
	}
	b := document.NewBuilder(u.Format, u.File, l.opts)
	for i, rec := range u.Records {
		obj := u.First
		if i > 0 || obj == nil {
			var bad *finding.Finding
			if obj, bad = Decode(u.File, rec); bad != nil {
				out = append(out, *bad)
				continue
			}
		}
		if u.Format == "" {
			continue
		}
		if d := b.Add(rec.Line, obj); d != nil {
			out = append(out, l.Document(ctx, d)...)
		}
	}
	if d := b.Finish(); d != nil {
		out = append(out, l.Document(ctx, d)...)
	}
	slices.SortFunc(out, finding.Compare)
	return out
}

// Document evaluates every active rule over one document and returns the
// findings placed in its file. A policy that fails on the document gives a
// policy-error finding.
func (l *Linter) Document(ctx context.Context, d *document.Document) []finding.Finding {
	hits, err := l.ev.Evaluate(ctx, d)
	var out []finding.Finding
	if err != nil {
		out = append(out, coreFinding(RulePolicyError, d.File, d.Line, err.Error()))
	}
	return append(out, Place(d, hits)...)
}

// Place turns rule hits on a document into findings on lines of its file.
func Place(d *document.Document, hits []policy.Hit) []finding.Finding {
	out := make([]finding.Finding, 0, len(hits))
	for _, h := range hits {
		line, path, _ := d.Locate(h.Target)
		if h.Path != "" {
			path = h.Path
		}
		f := finding.Finding{
			Rule: h.Rule, Severity: h.Severity, Message: h.Message, Pack: h.Pack,
			File: d.File, Line: line, Record: d.ID, Path: path,
		}
		if i, ok := h.Target.Message(); ok {
			f.MessageIndex = &i
		}
		out = append(out, f)
	}
	return out
}

// Decode decodes one record, or returns the finding that says why it is not
// a JSON object.
func Decode(file string, rec jsonl.Record) (ast.Object, *finding.Finding) {
	v, err := astjson.Decode(rec.Data)
	if err != nil {
		f := coreFinding(RuleSyntax, file, rec.Line, "invalid JSON: "+err.Error())
		return nil, &f
	}
	obj, ok := v.(ast.Object)
	if !ok {
		f := coreFinding(RuleSyntax, file, rec.Line, fmt.Sprintf("a record must be a JSON object, not %s", kind(v)))
		return nil, &f
	}
	return obj, nil
}

// Detect names the format of a file from a record: ok is false when the
// record is not a JSON object (detection waits for the next record); when it
// is one but matches no format, format is "" and unrecognized is the finding
// to report once for the file. obj is the decoded record, to pass on as
// Unit.First.
func Detect(file string, rec jsonl.Record) (format document.Format, obj ast.Object, unrecognized *finding.Finding, ok bool) {
	v, err := astjson.Decode(rec.Data)
	obj, isObj := v.(ast.Object)
	if err != nil || !isObj {
		return "", nil, nil, false
	}
	if f, known := document.Detect(obj); known {
		return f, obj, nil, true
	}
	u := coreFinding(RuleUnrecognized, file, rec.Line, fmt.Sprintf(
		"unrecognized format: the first record has keys {%s}; expected %s (force one with --format)",
		document.Keys(obj), document.FormatNames()))
	return "", obj, &u, true
}

func kind(v ast.Value) string {
	switch v.(type) {
	case *ast.Array:
		return "an array"
	case ast.String:
		return "a string"
	case ast.Number:
		return "a number"
	case ast.Boolean:
		return "a boolean"
	case ast.Null:
		return "null"
	}
	return "a value"
}
