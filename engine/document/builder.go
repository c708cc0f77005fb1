package document

import "github.com/open-policy-agent/opa/v1/ast"

// Builder turns the records of one file, in order, into documents.
type Builder interface {
	// Add takes the next record. Per-record formats return its document;
	// whole-file formats return nil until Finish.
	Add(line int, rec ast.Object) *Document
	// Finish returns the document of a whole-file format, or nil.
	Finish() *Document
}

// An Expecter is a Builder that can be told, before the first Add, how
// many records it will be given: a session's builder then sizes its lists
// once rather than growing them line by line (each growth a copy, the old
// array garbage the collector follows).
type Expecter interface {
	Expect(records int)
}
