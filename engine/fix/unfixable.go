package fix

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// UnfixableError is a record of a format fix cannot rewrite in its own
// layout (a batch output, say): the file is to be refused, not damaged.
type UnfixableError struct {
	Format document.Format
	Line   int
	Reason string
}

func (e *UnfixableError) Error() string {
	return fmt.Sprintf("fix does not rewrite %s files (line %d): %s", e.Format, e.Line, e.Reason)
}

// unfixable asks the format's adapter about the first record that is a
// JSON object: the first line of a session, the record of a per-record
// format.
func unfixable(f document.Format, recs []jsonl.Record, max int) error {
	ad := document.Lookup(f)
	if ad == nil || ad.Unfixable == nil {
		return nil
	}
	for _, r := range recs {
		if !astjson.OpensObject(r.Data) {
			continue
		}
		v, err := astjson.DecodeMax(r.Data, max)
		obj, ok := v.(ast.Object)
		if err != nil || !ok {
			continue // reported when the record is built
		}
		if why := ad.Unfixable(obj); why != "" {
			return &UnfixableError{Format: f, Line: r.Line, Reason: why}
		}
		return nil
	}
	return nil
}

// UnreadError is a record of the file's format that the format's reader
// cannot read (document.Adapter.Unread): it is left as it is, with a note,
// rather than rewritten from a reading that would lose it.
type UnreadError struct {
	Format document.Format
	Line   int
	Reason string
}

func (e *UnreadError) Error() string {
	return fmt.Sprintf("the record does not fit %s: it lacks %s; left as it is", e.Format, e.Reason)
}

// TooDenseError is a record over the bound on the values one record builds
// (document.Options.MaxValues): its decode stopped at the bound, and the
// record, or the session that holds it, is written back as it was.
type TooDenseError struct {
	Line int
	Err  *astjson.DenseError
}

func (e *TooDenseError) Error() string {
	return lint.TooDense(e.Err) + "; the record was written back as it is: raise --max-record-values to fix it"
}
