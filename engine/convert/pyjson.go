package convert

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// The reference converter reads every line with Python's json.loads and writes
// records with json.dumps. Reading and writing back changes two things a byte
// comparison sees, so values are normalized the same way when they are read:
//
//   - a number with a fraction or an exponent becomes a Python float and is
//     written as repr writes it (1.50 -> 1.5, 1e5 -> 100000.0, 1e400 ->
//     Infinity); an integer keeps its digits (-0 becomes 0);
//   - an object with a key twice keeps the key where it first appeared, with
//     the last value (a dict assigned in order).

// decodePython parses one JSON value and normalizes it as Python would hold it.
// Like Python's json.loads it also accepts the literals NaN, Infinity and
// -Infinity (which Python's json.dumps writes for such floats).
func decodePython(data []byte) (jsonv.Value, error) {
	v, err := jsonv.Decode(py.ReplaceNonFinite(data, nanNumber, "1e77777777777777777777", "-1e77777777777777777777"))
	if err != nil {
		return nil, err
	}
	return pythonize(v), nil
}

func pythonize(v jsonv.Value) jsonv.Value {
	switch t := v.(type) {
	case json.Number:
		return json.Number(pyNumber(string(t)))
	case []jsonv.Value:
		for i, e := range t {
			t[i] = pythonize(e)
		}
		return t
	case *jsonv.Object:
		seen := make(map[string]int, len(t.Members))
		out := t.Members[:0]
		for _, m := range t.Members {
			m.Value = pythonize(m.Value)
			if i, dup := seen[m.Key]; dup {
				out[i].Value = m.Value
				continue
			}
			seen[m.Key] = len(out)
			out = append(out, m)
		}
		t.Members = out
		return t
	}
	return v
}

// pyNumber rewrites a JSON number's text as Python prints the value json.loads
// made of it.
func pyNumber(s string) string {
	if s == nanNumber {
		return "NaN"
	}
	if !strings.ContainsAny(s, ".eE") {
		if strings.TrimLeft(s, "-0") == "" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	return py.Float(f)
}

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, py.IsSpace) }

// pyIsWord is a character of Python's \w in a Unicode pattern.
func pyIsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isPyDigit is Python's str.isdigit for one character: decimal digits and
// the other characters with a digit value (superscripts, circled digits).
func isPyDigit(r rune) bool {
	return unicode.IsDigit(r) || unicode.Is(unicode.No, r) && digitValue(r)
}

// digitValue approximates Unicode's Numeric_Type=Digit among No characters:
// superscript, subscript and circled digits.
func digitValue(r rune) bool {
	return r == 0xb2 || r == 0xb3 || r == 0xb9 || r >= 0x2070 && r <= 0x2079 || r >= 0x2080 && r <= 0x2089 || r >= 0x2460 && r <= 0x2468 || r >= 0x2474 && r <= 0x247c || r >= 0x2488 && r <= 0x2490 || r >= 0x24f5 && r <= 0x24fd || r == 0x24ea || r == 0x24ff || r >= 0x2776 && r <= 0x277e || r >= 0x2780 && r <= 0x2788 || r >= 0x278a && r <= 0x2792
}

// nanNumber stands for a NaN literal while encoding/json reads the value: a
// valid JSON number no writer produces (zero with a 20-digit exponent).
// Infinity becomes a number too large for a float, which reads as infinite.
const nanNumber = "-0e-77777777777777777777"

// ruleJSON writes a value for the rule engine: compact JSON, with the
// non-finite numbers Python allows written as strings.
func ruleJSON(v jsonv.Value) []byte {
	return py.ReplaceNonFinite(jsonv.Marshal(v, jsonv.Compact), `"NaN"`, `"Infinity"`, `"-Infinity"`)
}
