package document

import "github.com/open-policy-agent/opa/v1/ast"

// A pack's Rego may be gated (policy's rego_when): OPA runs only on the
// documents a gate fires on. Where every Rego rule that applies to a
// document is gated, the document is built with what the YAML rules and the
// gates read (Fields.ForGate), and decoded as far as they read it: a rule
// of the contract pack reads the record whole, yet most records meet the
// contract and need no more than their shape. The rare document a gate
// fires on is built again whole from its whole record for OPA (ForRego),
// as Go code reads it (Locate, Messages).

// ForGate returns f marked as the fields of documents whose Rego is gated:
// what the YAML rules and the gates read, not what the Rego rules read.
// Such a document gives the Rego rules ForRego.
func (f *Fields) ForGate() *Fields {
	if f.All() {
		return f
	}
	g := *f
	g.gated = true
	return &g
}

// Gated reports whether f is marked by ForGate.
func (f *Fields) Gated() bool { return f != nil && f.gated }

// RebuildsWhole reports whether the documents of format f, built with
// Fields, can be built again whole from their whole record (ForRego): the
// record formats fromRecord builds. A session's builders prune what they
// decode of each line and build no whole document, so they are never built
// for a gate alone.
func RebuildsWhole(f Format) bool {
	a := Lookup(f)
	return a != nil && a.rebuilds
}

// BuiltForGate reports whether d was built for a gate (Fields.ForGate):
// the Rego rules read ForRego, not d.
func (d *Document) BuiltForGate() bool {
	return d.fields != nil && d.fields.gated && d.whole != nil
}

// RebuiltForRego reports whether d, built for a gate, was built again
// whole for OPA (ForRego): a gate fired on it.
func (d *Document) RebuiltForRego() bool { return d.rego != nil }

// ForRego is the document the Rego rules read when d was built for a gate
// (BuiltForGate): d built whole from its whole record, with the members set
// on d after it was built (SetExampleTokens, MarkDuplicate). Every member a
// Rego rule may read is there as without Fields, so OPA finds on it what it
// finds on a document pruned for the Rego rules. Its Value holds no views.
// A document not built for a gate is its own.
func (d *Document) ForRego() *Document {
	if !d.BuiltForGate() {
		return d
	}
	if d.rego != nil {
		return d.rego
	}
	o := materialize(d.goValue())
	for _, k := range [...]*ast.Term{keyExampleTokens, keyDup} {
		if t := d.Value.Get(k); t != nil {
			o.Insert(k, t)
		}
	}
	d.rego = &Document{Format: d.Format, File: d.File, Line: d.Line, ID: d.ID, Profile: d.Profile,
		skipLookup: d.skipLookup, model: d.model, Value: o}
	return d.rego
}
