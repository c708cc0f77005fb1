package document

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Projection returns what the builder of format f reads of each raw record
// under opts, for astjson.DecodeProjected: the decoder then builds only
// that, and lexes the rest. It is nil, meaning decode records whole, when
// opts keeps every member (Fields is All: convert, stats, a dataset fold),
// when a rule reads the record itself (raw), under RawOnly, and for
// the formats whose adapter does not say what it reads (Adapter.Reads).
//
// A document built from a projected record holds exactly what it would
// hold built from the whole record, in every member Fields keeps. Go code
// that reads the whole document (Locate, Messages) rebuilds it from the
// whole record, which the caller hands over with Document.Reread.
func Projection(f Format, opts Options) *astjson.Projection {
	a := Lookup(f)
	if a == nil || a.Reads == nil || opts.Fields.All() || opts.RawOnly {
		return nil
	}
	return a.Reads(opts.Fields)
}

// Reread gives a document built from a projected record the way to decode
// its record whole: the whole document (Document.goValue) is built from
// that record, not from the projected one.
func (d *Document) Reread(whole func() ast.Object) { d.reread = whole }

// record is the raw record the whole document is built from: rec, or the
// whole record when rec was projected.
func (d *Document) record(rec ast.Object) ast.Object {
	if d.reread == nil {
		return rec
	}
	if whole := d.reread(); whole != nil {
		return whole
	}
	return rec
}
