// Package document turns the records of every input format into one
// normalized document, the shape every rule is evaluated over. See
// docs/document.md for the model.
package document

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Options change how records are normalized.
type Options struct {
	// ToolCalls forces the tool-call representation: "inline" or
	// "structured". Empty means detect it per record.
	ToolCalls string
}

// Document is one normalized conversation or session.
type Document struct {
	Format Format
	File   string
	// Line is the 1-based line where the document starts.
	Line int
	// ID is the conversation or session id, or file:line when it has none.
	ID string
	// Value is the normalized document, given to Rego as input.
	Value ast.Object
	// toolLines are the source lines of the tools when they differ from
	// Line (proxy-log sessions gather tools from many lines).
	toolLines []int
}

// Messages returns the normalized messages array.
func (d *Document) Messages() *ast.Array { return arrayField(d.Value, KeyMessages) }

// Tools returns the normalized tools array.
func (d *Document) Tools() *ast.Array { return arrayField(d.Value, KeyTools) }

// Entries returns the normalized entries array.
func (d *Document) Entries() *ast.Array { return arrayField(d.Value, keyEntries) }

// Locate returns the line and JSON Pointer of an element of the document:
// a tool call of a message, a message, a tool or an entry, most specific first.
// A negative index means "not named". When nothing is named it returns the
// document's own line and an empty path.
func (d *Document) Locate(message, toolCall, tool, entry int) (line int, path string) {
	if m := elem(d.Messages(), message); m != nil {
		line, path = intField(m, KeyLine), stringField(m, KeyPath)
		if c := elem(arrayField(m, KeyToolCalls), toolCall); c != nil {
			path = stringField(c, KeyPath)
		}
		return orLine(line, d.Line), path
	}
	if t := elem(d.Tools(), tool); t != nil {
		line := d.Line
		if tool < len(d.toolLines) {
			line = d.toolLines[tool]
		}
		return line, stringField(t, KeyPath)
	}
	if e := elem(d.Entries(), entry); e != nil {
		return orLine(intField(e, KeyLine), d.Line), ""
	}
	return d.Line, ""
}

func orLine(line, def int) int {
	if line > 0 {
		return line
	}
	return def
}

func elem(a *ast.Array, i int) ast.Object {
	if a == nil || i < 0 || i >= a.Len() {
		return nil
	}
	o, _ := a.Elem(i).Value.(ast.Object)
	return o
}

func fallbackID(file string, line int) string { return file + ":" + strconv.Itoa(line) }
