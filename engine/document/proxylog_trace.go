package document

import (
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/internal/py"
)

// roleTrace tokenizes the roles of a request's messages for the
// role-sequence-mismatch rule, which compares the traces of consecutive
// entries. The tokens are the reference converter's, so that check and
// convert (which reads the session through this adapter) report the same
// entries:
//
//   - system and developer are S, tool is T;
//   - user is U, or R when its content is a list made only of tool_result
//     parts (an Anthropic-style tool result);
//   - assistant is Ac with text, At with tool_calls, Act with both, A with
//     neither; text is a string content, or the text of the content's
//     "text" parts, that is not only white space (Python's str.strip);
//   - another role is its first letter in upper case ("User" and "user"
//     compare equal, as there);
//   - a message without a role (or whose role is no string) has no token.
func roleTrace(msgs *ast.Array) *ast.Term {
	out := make([]*ast.Term, 0, msgs.Len())
	for i := 0; i < msgs.Len(); i++ {
		o, _ := msgs.Elem(i).Value.(ast.Object)
		var tok string
		switch role := stringField(o, keyRole); role {
		case "":
			continue
		case "system", "developer":
			tok = "S"
		case "user":
			tok = userToken(get(o, keyContent))
		case "tool":
			tok = "T"
		case "assistant":
			content := strings.TrimFunc(traceText(get(o, keyContent)), py.IsSpace) != ""
			calls := arrayField(o, KeyToolCalls)
			switch hasCalls := calls != nil && calls.Len() > 0; {
			case content && hasCalls:
				tok = "Act"
			case content:
				tok = "Ac"
			case hasCalls:
				tok = "At"
			default:
				tok = "A"
			}
		default:
			r, _ := utf8.DecodeRuneInString(role)
			tok = strings.ToUpper(string(r))
		}
		out = append(out, tokenTerm(tok))
	}
	return ast.ArrayTerm(out...)
}

// userToken is R for a content list made only of tool_result parts, else U.
func userToken(c *ast.Term) string {
	parts := arrayOf(c)
	if parts == nil || parts.Len() == 0 {
		return "U"
	}
	for i := 0; i < parts.Len(); i++ {
		po, _ := parts.Elem(i).Value.(ast.Object)
		if stringField(po, keyType) != "tool_result" {
			return "U"
		}
	}
	return "R"
}

// traceText is a content's text as the reference reads it for the trace: a
// string as is, the "text" of the parts of type "text" of a list joined with
// nothing, "" for anything else.
func traceText(c *ast.Term) string {
	if c == nil {
		return ""
	}
	switch v := c.Value.(type) {
	case ast.String:
		return string(v)
	case *ast.Array:
		var b strings.Builder
		for i := 0; i < v.Len(); i++ {
			po, _ := v.Elem(i).Value.(ast.Object)
			if stringField(po, keyType) != "text" {
				continue
			}
			if t := get(po, keyText); t != nil {
				if s, ok := t.Value.(ast.String); ok {
					b.WriteString(string(s))
				}
			}
		}
		return b.String()
	}
	return ""
}

func arrayOf(t *ast.Term) *ast.Array {
	if t == nil {
		return nil
	}
	a, _ := t.Value.(*ast.Array)
	return a
}

var tokenTerms = map[string]*ast.Term{}

func init() {
	for _, t := range []string{"S", "U", "R", "T", "A", "Ac", "At", "Act"} {
		tokenTerms[t] = ast.StringTerm(t)
	}
}

func tokenTerm(s string) *ast.Term {
	if t, ok := tokenTerms[s]; ok {
		return t
	}
	return ast.StringTerm(s)
}

// RoleTraces returns the role trace of each entry of a session document,
// in entry order: the tokens role-sequence-mismatch compares, for a report
// that prints them (convert words the reference's line with them).
func (d *Document) RoleTraces() [][]string {
	entries := d.Entries()
	if entries == nil {
		return nil
	}
	out := make([][]string, entries.Len())
	for i := range out {
		e, _ := entries.Elem(i).Value.(ast.Object)
		roles := arrayField(e, keyRoles)
		if roles == nil {
			continue
		}
		toks := make([]string, roles.Len())
		for j := range toks {
			s, _ := roles.Elem(j).Value.(ast.String)
			toks[j] = string(s)
		}
		out[i] = toks
	}
	return out
}
