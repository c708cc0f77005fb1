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
