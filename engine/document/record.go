package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// fromRecord normalizes one chat or contract record.
func fromRecord(format Format, file string, line int, rec ast.Object, opts Options) *Document {
	var ms []message
	if raw := arrayField(rec, keyMessages); raw != nil {
		ms = make([]message, raw.Len())
		for i := range ms {
			ms[i] = readMessage(raw.Elem(i), line, pointerIndex("/messages", i))
		}
	}
	mode := detectMode(ms, opts.ToolCalls)
	id := stringField(rec, keyConvID)
	if id == "" {
		id = stringField(rec, keyID)
	}
	if id == "" {
		id = fallbackID(file, line)
	}
	var tools []*ast.Term
	if raw := arrayField(rec, keyTools); raw != nil {
		tools = make([]*ast.Term, raw.Len())
		for i := range tools {
			tools[i] = toolTerm(i, raw.Elem(i), line, pointerIndex("/tools", i))
		}
	}
	d := &Document{Format: format, File: file, Line: line, ID: id}
	d.Value = newDocument(d, mode, buildMessages(ms, mode), ast.ArrayTerm(tools...), emptyArray, ast.NewTerm(rec))
	return d
}

func newDocument(d *Document, mode string, messages, tools, entries, raw *ast.Term) ast.Object {
	o := ast.NewObjectWithCapacity(9)
	o.Insert(keyFormat, strTerm(string(d.Format)))
	o.Insert(keyFile, strTerm(d.File))
	o.Insert(keyLine, intTerm(d.Line))
	o.Insert(keyID, strTerm(d.ID))
	o.Insert(keyMode, strTerm(mode))
	o.Insert(keyMessages, messages)
	o.Insert(keyTools, tools)
	o.Insert(keyEntries, entries)
	o.Insert(keyRaw, raw)
	return o
}

// toolTerm normalizes one tool definition. "function" is the definition
// itself: the function object of an OpenAI {"type": "function", "function":
// …} wrapper, else the element as given (seed 001's flattening).
func toolTerm(i int, raw *ast.Term, line int, path string) *ast.Term {
	def, defPath := raw, path
	name := ""
	if o, ok := raw.Value.(ast.Object); ok {
		if fn := get(o, keyFunction); fn != nil {
			if fo, ok := fn.Value.(ast.Object); ok {
				def, defPath = fn, path+"/function"
				name = stringField(fo, keyName)
			}
		}
		if name == "" {
			name = stringField(o, keyName)
		}
	}
	o := ast.NewObjectWithCapacity(7)
	o.Insert(keyIndex, intTerm(i))
	o.Insert(keyName, strTerm(name))
	o.Insert(keyLine, intTerm(line))
	o.Insert(keyPath, strTerm(path))
	o.Insert(keyRaw, raw)
	o.Insert(keyFunction, def)
	o.Insert(keyFunctionPath, strTerm(defPath))
	return ast.NewTerm(o)
}
