package document

import (
	"encoding/json"
	"strings"
)

// pyLiteralJSON rewrites a Python literal (a dict as Python's repr or
// str() prints it: single-quoted strings, True, False, None, trailing
// commas) as JSON, for <tool_call> bodies that Hermes-style datasets wrote
// with str(dict) instead of json.dumps (Glaive-derived and
// NousResearch/hermes-function-calling-v1 records both hold some). ok is
// false when s is not such a literal; a JSON body is left to the JSON
// reader.
func pyLiteralJSON(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j, ok := pyString(&b, s, i)
			if !ok {
				return "", false
			}
			i = j
		case c == ',':
			// Python allows a comma before a closing bracket; JSON does not.
			k := i + 1
			for k < len(s) && strings.IndexByte(" \t\r\n", s[k]) >= 0 {
				k++
			}
			if k < len(s) && (s[k] == '}' || s[k] == ']') {
				i = k
				continue
			}
			b.WriteByte(c)
			i++
		case c == '(': // a tuple is a list in JSON
			b.WriteByte('[')
			i++
		case c == ')':
			b.WriteByte(']')
			i++
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			word, ok := map[string]string{"True": "true", "False": "false", "None": "null"}[s[i:j]]
			if !ok {
				return "", false // a name or a call: not a literal
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	out := b.String()
	return out, json.Valid([]byte(out))
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// pyString writes the Python string literal at s[i] (quoted with s[i]) as a
// JSON string and returns the index after it.
func pyString(b *strings.Builder, s string, i int) (int, bool) {
	quote := s[i]
	var val strings.Builder
	j := i + 1
	for ; j < len(s) && s[j] != quote; j++ {
		c := s[j]
		if c != '\\' {
			val.WriteByte(c)
			continue
		}
		j++
		if j == len(s) {
			return 0, false
		}
		switch e := s[j]; e {
		case 'n':
			val.WriteByte('\n')
		case 't':
			val.WriteByte('\t')
		case 'r':
			val.WriteByte('\r')
		case '\\', '\'', '"':
			val.WriteByte(e)
		default: // \uXXXX, \xXX and the rest: kept as written
			val.WriteByte('\\')
			val.WriteByte(e)
		}
	}
	if j == len(s) {
		return 0, false
	}
	enc, _ := json.Marshal(val.String())
	b.Write(enc)
	return j + 1, true
}
