package astjson

import (
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// longLiteral is the length above which a number with an exponent is range
// checked on a shortened copy. ast.NumberChecked parses the whole literal
// with big.Float, whose decimal scan is quadratic in the number of digits: a
// 6 MB line of such literals took half a minute. Below this length the
// quadratic cost is a few microseconds, and the check is OPA's own.
const longLiteral = 1024

// keptDigits is how many significant digits the shortened copy keeps (plus a
// sticky digit standing for any non-zero digit dropped). OPA's check asks
// whether the value's binary exponent is within ±1e5; the leading digits and
// the decimal exponent decide that, except for a value crafted to sit within
// 10^-800 of the limit, where the answer may differ from OPA's by one number.
const keptDigits = 800

// maxExpDigits bounds the exponent a long literal may carry: beyond 10^15 a
// non-zero value is far outside the range, and big.Float's own exponent
// arithmetic overflows, so its answer there is not worth imitating.
const maxExpDigits = 15

// numberInRange reports whether OPA evaluates the number literal lit (valid
// JSON, with an exponent). It runs in time linear in len(lit).
func numberInRange(lit string) bool {
	if len(lit) <= longLiteral {
		_, err := ast.NumberChecked(lit)
		return err == nil
	}
	short, ok := shortenNumber(lit)
	if !ok {
		return false
	}
	_, err := ast.NumberChecked(short)
	return err == nil
}

// shortenNumber returns a literal of at most keptDigits significant digits
// whose range check gives the same answer as lit's; ok is false when lit is
// certainly out of range.
func shortenNumber(lit string) (short string, ok bool) {
	sign := ""
	if lit[0] == '-' {
		sign, lit = "-", lit[1:]
	}
	e := strings.IndexAny(lit, "eE")
	mant, expText := lit[:e], lit[e+1:]
	intPart, frac, _ := strings.Cut(mant, ".")
	if strings.Trim(intPart, "0") == "" && strings.Trim(frac, "0") == "" {
		return sign + "0e" + expText, true // zero: only the exponent's text matters
	}
	exp, ok := parseExponent(expText)
	if !ok {
		return "", false
	}

	// Find the first significant digit and its decimal exponent: the value
	// is d.ddd… × 10^(lead+exp).
	var digits string
	var lead int64
	if t := strings.TrimLeft(intPart, "0"); t != "" {
		digits = t + frac
		lead = int64(len(t) - 1)
	} else {
		t := strings.TrimLeft(frac, "0")
		digits = t
		lead = -int64(len(frac)-len(t)) - 1
	}
	var b strings.Builder
	b.Grow(keptDigits + 32)
	b.WriteString(sign)
	b.WriteByte(digits[0])
	b.WriteByte('.')
	if len(digits) > keptDigits {
		b.WriteString(digits[1:keptDigits])
		if strings.Trim(digits[keptDigits:], "0") != "" {
			b.WriteByte('1') // sticky: the value is above the kept digits
		}
	} else {
		b.WriteString(digits[1:])
		b.WriteByte('0')
	}
	b.WriteByte('e')
	b.WriteString(strconv.FormatInt(lead+exp, 10))
	return b.String(), true
}

// parseExponent parses an exponent ("+12", "-3", "007") of at most
// maxExpDigits significant digits.
func parseExponent(s string) (int64, bool) {
	neg := false
	switch s[0] {
	case '-':
		neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > maxExpDigits {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
