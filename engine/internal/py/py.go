// Package py holds chatlint's Python compatibility, for the drop-in commands
// whose reference tools are Python programs: values written as Python prints
// them (convert's records and messages, validate-input's report), json.loads'
// error wording, and date-times as pydantic reads them.
package py

import (
	"math"
	"strconv"
	"strings"
)

// Float formats f as Python's repr (and so json.dumps) does: the shortest
// digits that read back to the same value, in fixed notation when the
// decimal exponent is in [-4, 16), else in scientific notation with at least
// two exponent digits; integral values keep ".0" ("2.5", "0.0",
// "2.3333333333333335", "1e+16", "1.5e-05").
func Float(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e // Go writes "1e-05" and "1e+16", as Python does
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// Path renders a path as Python's str(pathlib.Path(p)) does: "." components
// and repeated or trailing slashes dropped, ".." kept, and exactly two
// leading slashes kept as POSIX allows ("./data//x.jsonl" is "data/x.jsonl",
// "//host/x" stays).
func Path(p string) string {
	if p == "" {
		return "."
	}
	prefix := ""
	switch {
	case strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///"):
		prefix = "//"
	case strings.HasPrefix(p, "/"):
		prefix = "/"
	}
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	out := prefix + strings.Join(parts, "/")
	if out == "" {
		return "."
	}
	return out
}

// IsSpace is Python's str.isspace for one character, what str.strip() and
// str.split() strip: Unicode white space (category Z) and the ASCII
// separators U+001C..U+001F, plus \t..\r and U+0085. ASCII is decided
// without a table lookup: callers run it on every line they read.
func IsSpace(r rune) bool {
	switch {
	case r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f):
		return true
	case r < 0x85:
		return false
	}
	switch r {
	case 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
