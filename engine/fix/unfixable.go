package fix

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
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
func unfixable(f document.Format, recs []jsonl.Record) error {
	ad := document.Lookup(f)
	if ad == nil || ad.Unfixable == nil {
		return nil
	}
	for _, r := range recs {
		if !astjson.OpensObject(r.Data) {
			continue
		}
		v, err := astjson.Decode(r.Data)
		obj, ok := v.(ast.Object)
		if err != nil || !ok {
			continue
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
