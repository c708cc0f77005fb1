package document

import "github.com/open-policy-agent/opa/v1/ast"

// toolName is the name toolTerm gives a tool definition: its function's
// name in an OpenAI {"type": "function", "function": …} wrapper, else its
// own. The proxy-log builder deduplicates a session's tools by it before
// normalizing any, so a definition every request repeats is normalized once.
func toolName(raw *ast.Term) string {
	o, ok := raw.Value.(ast.Object)
	if !ok {
		return ""
	}
	if fn := get(o, keyFunction); fn != nil {
		if fo, ok := fn.Value.(ast.Object); ok {
			if name := stringField(fo, keyName); name != "" {
				return name
			}
		}
	}
	return stringField(o, keyName)
}
