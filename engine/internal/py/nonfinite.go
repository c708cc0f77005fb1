package py

import "bytes"

// ReplaceNonFinite rewrites the literals NaN, Infinity and -Infinity outside
// strings with nan, inf and negInf: into numbers encoding/json accepts
// (convert reads Python's JSON), strings where a value goes to the rule
// engine, null for the strict JSON text of a line Loads accepted.
func ReplaceNonFinite(data []byte, nan, inf, negInf string) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	var out []byte
	last := 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		var lit, repl string
		switch {
		case c == '"':
			inString = true
			continue
		case c == 'N' && bytes.HasPrefix(data[i:], []byte("NaN")):
			lit, repl = "NaN", nan
		case c == 'I' && bytes.HasPrefix(data[i:], []byte("Infinity")):
			lit, repl = "Infinity", inf
		case c == '-' && bytes.HasPrefix(data[i:], []byte("-Infinity")):
			lit, repl = "-Infinity", negInf
		default:
			continue
		}
		out = append(out, data[last:i]...)
		out = append(out, repl...)
		i += len(lit) - 1
		last = i + 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}
