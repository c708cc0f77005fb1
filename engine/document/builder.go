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

// NewBuilder returns the Builder for a format.
func NewBuilder(f Format, file string, opts Options) Builder {
	switch f {
	case ProxyLog:
		return newProxyLog(file, opts)
	case AgentSession:
		return &agentSession{file: file, opts: opts}
	}
	return recordBuilder{format: f, file: file, opts: opts}
}

type recordBuilder struct {
	format Format
	file   string
	opts   Options
}

func (b recordBuilder) Add(line int, rec ast.Object) *Document {
	return fromRecord(b.format, b.file, line, rec, b.opts)
}

func (recordBuilder) Finish() *Document { return nil }
