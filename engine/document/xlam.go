package document

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// xLAM / APIGen records (Salesforce's xlam-function-calling-60k and the
// APIGen pipeline's output) hold one single-turn function-calling example:
// {"id", "query": TEXT, "tools": TOOLS, "answers": CALLS}, tools and answers
// as JSON strings (or, in copies that decoded them, as JSON). A tool is
// {"name", "description", "parameters": {ARG: {"type": "str" | "int" |
// "List[int]" | "str, optional" | …, "description", "default"}}}, Python
// type names rather than a JSON Schema; an answer is {"name", "arguments"},
// and "[]" answers a query that no tool serves (the irrelevance split).
//
// The document has two messages: the query as a user message (/query), the
// answers as one assistant message whose calls are the answers (ids
// xlam-K, path /answers). Tools are read with their parameters translated
// into the JSON Schema they describe (xlamSchema), so that the rules on
// tool schemas and arguments and convert --to openai read them as any
// other.
var xlamAdapter = &Adapter{
	Format:  XLAM,
	Summary: `xLAM / APIGen function calling: {"query", "tools", "answers"}, tools and answers as JSON strings (Salesforce xlam-function-calling-60k)`,
	Detect: func(rec ast.Object) bool {
		return xlamMember(rec, keyQuery, true) && xlamMember(rec, keyAnswers, false) && xlamMember(rec, KeyTools, false) &&
			get(rec, KeyMessages) == nil && get(rec, keyConversations) == nil
	},
	Shape:      "a query string, and tools and answers (JSON strings or lists)",
	NewBuilder: func(file string, opts Options) Builder { return xlamBuilder{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "an xLAM record holds its calls and tools inside JSON strings, which fix does not rewrite"
	},
}

// XLAM is the format of xLAM / APIGen records.
const XLAM Format = "xlam"

var (
	keyQuery   = ast.StringTerm("query")
	keyAnswers = ast.StringTerm("answers")
)

// xlamMember reports whether rec's member k is a string (or, unless
// stringOnly, a list).
func xlamMember(rec ast.Object, k *ast.Term, stringOnly bool) bool {
	switch termValue(get(rec, k)).(type) {
	case ast.String:
		return true
	case *ast.Array:
		return !stringOnly
	}
	return false
}

type xlamBuilder struct {
	file string
	opts Options
}

func (b xlamBuilder) Add(line int, rec ast.Object) *Document {
	var ms []message
	if q := get(rec, keyQuery); q != nil {
		text, has := contentText(q)
		ms = append(ms, message{raw: q, role: "user", text: text, textTerm: q, hasContent: has,
			line: line, pathTerm: strTerm("/query"), chatIndex: -1})
	}
	if a := get(rec, keyAnswers); a != nil {
		m := message{raw: a, role: "assistant", line: line, pathTerm: strTerm("/answers"), chatIndex: -1, ownCalls: true}
		m.addXLAMCalls(a)
		if len(m.calls) > 0 {
			ms = append(ms, m)
		}
	}
	id := ""
	if t := get(rec, keyID); t != nil {
		switch v := t.Value.(type) {
		case ast.String:
			id = string(v)
		case ast.Number:
			id = v.String()
		}
	}
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(XLAM, b.file, line, id, b.opts)
	d.Value = newDocument(d, modeStructured, ms, xlamTools(rec), emptyArray, ast.NewTerm(rec))
	return d
}

func (xlamBuilder) Finish() *Document { return nil }

// decodeMember reads a member that holds JSON as a string or as JSON.
func decodeMember(t *ast.Term) (ast.Value, error) {
	if t == nil {
		return nil, nil
	}
	if s, ok := t.Value.(ast.String); ok {
		return astjson.Decode([]byte(strings.TrimSpace(string(s))))
	}
	return t.Value, nil
}

// addXLAMCalls reads the answers: a list of {"name", "arguments"}. A value
// that is not a JSON list gives no call (xlam-answers-invalid reports it on
// the record); an element that is not an object gives a call with a
// parse_error.
func (m *message) addXLAMCalls(a *ast.Term) {
	path := strTerm("/answers")
	id := func(k int) *ast.Term { return strTerm(fmt.Sprintf("xlam-%d", k)) }
	v, err := decodeMember(a)
	list, ok := v.(*ast.Array)
	if err != nil || !ok {
		return
	}
	for k := 0; k < list.Len(); k++ {
		o, ok := list.Elem(k).Value.(ast.Object)
		if !ok {
			m.addCall(id(k), emptyString, nil, false, path, fmt.Sprintf("answer %d is not a JSON object", k))
			continue
		}
		args, has := callInput(o)
		m.addCall(id(k), stringTerm(o, keyName), args, has, path, "")
	}
}

// xlamTools reads the tools, each with its parameters as a JSON Schema.
// Tools inside a string have no pointer of their own: their path is /tools.
func xlamTools(rec ast.Object) *ast.Term {
	raw := get(rec, KeyTools)
	v, err := decodeMember(raw)
	list, ok := v.(*ast.Array)
	if err != nil || !ok {
		return emptyArray
	}
	_, isString := raw.Value.(ast.String)
	tools := make([]*ast.Term, list.Len())
	for i := range tools {
		path := "/tools"
		if !isString {
			path = pointerIndex("/tools", i)
		}
		el := list.Elem(i)
		o, ok := el.Value.(ast.Object)
		if !ok {
			tools[i] = toolTerm(i, el, path)
			continue
		}
		def := o.Copy()
		if p := get(o, keyParameters); p != nil {
			def.Insert(keyParameters, ast.NewTerm(xlamSchema(p.Value)))
		}
		t := toolTerm(i, ast.NewTerm(def), path)
		t.Value.(ast.Object).Insert(KeyRaw, el) // raw stays as given
		tools[i] = t
	}
	return ast.ArrayTerm(tools...)
}

// xlamSchema translates xLAM parameters, {ARG: {"type", "description",
// "default", "required"}}, into the JSON Schema of an object with those
// properties. Parameters that are already a JSON Schema (a type "object"
// with properties) are kept. A type ending in ", optional" is not required;
// an explicit boolean required decides where given.
func xlamSchema(p ast.Value) ast.Value {
	o, ok := p.(ast.Object)
	if !ok {
		return p
	}
	if stringField(o, keyType) == "object" || get(o, ast.StringTerm("properties")) != nil {
		return p
	}
	props := ast.NewObject()
	var required []*ast.Term
	o.Foreach(func(k, v *ast.Term) {
		name, _ := k.Value.(ast.String)
		spec, _ := v.Value.(ast.Object)
		prop := ast.NewObject()
		typ, optional := xlamType(stringField(spec, keyType))
		if typ != nil {
			prop.Insert(keyType, ast.StringTerm(typ.name))
			if typ.items != "" {
				prop.Insert(ast.StringTerm("items"), ast.ObjectTerm(ast.Item(keyType, ast.StringTerm(typ.items))))
			}
		}
		if spec != nil {
			for _, m := range []string{"description", "default", "enum"} {
				if t := get(spec, ast.StringTerm(m)); t != nil && !(m == "default" && t.Value.Compare(ast.String("")) == 0) {
					prop.Insert(ast.StringTerm(m), t)
				}
			}
			if r, ok := termValue(get(spec, ast.StringTerm("required"))).(ast.Boolean); ok {
				optional = !bool(r)
			}
		}
		props.Insert(k, ast.NewTerm(prop))
		if !optional {
			required = append(required, ast.StringTerm(string(name)))
		}
	})
	schema := ast.NewObject(ast.Item(keyType, ast.StringTerm("object")), ast.Item(ast.StringTerm("properties"), ast.NewTerm(props)))
	if len(required) > 0 {
		schema.Insert(ast.StringTerm("required"), ast.ArrayTerm(required...))
	}
	return schema
}

type jsonType struct{ name, items string }

// xlamTypes maps the Python type names xLAM writes to JSON Schema types.
var xlamTypes = map[string]string{
	"str": "string", "string": "string", "int": "integer", "integer": "integer", "float": "number", "number": "number",
	"bool": "boolean", "boolean": "boolean", "list": "array", "array": "array", "tuple": "array", "set": "array",
	"dict": "object", "object": "object",
}

// xlamType reads a type such as "str", "List[int]", "Dict[str, Any]" or
// "int, optional": its JSON type (nil when it has none: Any, Union, a
// name it does not know) and whether it is optional.
func xlamType(s string) (t *jsonType, optional bool) {
	s = strings.TrimSpace(s)
	if base, ok := strings.CutSuffix(s, ", optional"); ok {
		s, optional = strings.TrimSpace(base), true
	}
	if inner, ok := strings.CutPrefix(s, "Optional["); ok && strings.HasSuffix(inner, "]") {
		s, optional = strings.TrimSuffix(inner, "]"), true
	}
	head, arg, _ := strings.Cut(s, "[")
	name, ok := xlamTypes[strings.ToLower(strings.TrimSpace(head))]
	if !ok {
		return nil, optional
	}
	t = &jsonType{name: name}
	if name == "array" && arg != "" {
		if item, ok := xlamTypes[strings.ToLower(strings.TrimSuffix(strings.TrimSpace(arg), "]"))]; ok {
			t.items = item
		}
	}
	return t, optional
}
