package policy

import (
	"fmt"
	"math"
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// Date-time builtins: what a data contract means by "a date-time" is more than
// Rego's time.parse_rfc3339_ns accepts (date-only, minutes-only, a space
// separator, offsets without a colon, Unix times as numbers or numeric
// strings), and a regex cannot reject February 30.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.datetime_valid",
		Decl: types.NewFunction(types.Args(types.A), types.B),
	}, func(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
		return ast.BooleanTerm(DateTimeProblem(x.Value) == ""), nil
	})
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.datetime_problem",
		Decl: types.NewFunction(types.Args(types.A), types.S),
	}, func(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
		return ast.StringTerm(DateTimeProblem(x.Value)), nil
	})
}

// Unix times whose magnitude is above msWatershed are milliseconds, as
// pydantic reads them: 2e10 seconds is the year 2603, 2e10 ms is 1970.
const msWatershed = 2e10

// Bounds of a representable date-time in Unix seconds: 0001-01-01T00:00:00
// and 9999-12-31T23:59:59, the range of Python's datetime.
const (
	minUnix = -62135596800
	maxUnix = 253402300799
)

// DateTimeProblem returns "" when v is an accepted date-time, else why not.
//
// Accepted: a string YYYY-MM-DD, optionally followed by T, t, a space or _
// and HH:MM, HH:MM:SS or HH:MM:SS.F (any number of fraction digits, . or ,),
// optionally followed by Z, z or an offset ±HH:MM or ±HHMM under 24 hours; a
// Unix time (seconds, or milliseconds above 2e10 in magnitude) as a JSON
// number or as a string holding an integer or decimal number. Dates must
// exist (no month 13, no February 30) and fall between the years 1 and 9999.
func DateTimeProblem(v ast.Value) string {
	switch v := v.(type) {
	case ast.String:
		return stringDateTimeProblem(string(v))
	case ast.Number:
		f, ok := v.Float64()
		if !ok {
			return "number out of range for a Unix time"
		}
		return unixProblem(f)
	case ast.Boolean:
		return "a boolean is not a date-time"
	case ast.Null:
		return "null is not a date-time"
	case *ast.Array:
		return "an array is not a date-time"
	case ast.Object:
		return "an object is not a date-time"
	}
	return "not a date-time"
}

func unixProblem(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "not a finite number"
	}
	secs := f
	if math.Abs(f) > msWatershed {
		secs = f / 1000
	}
	if secs < minUnix || math.Floor(secs) > maxUnix {
		return "Unix time out of range, years 1 to 9999"
	}
	return ""
}

func stringDateTimeProblem(s string) string {
	if s == "" {
		return "an empty string is not a date-time"
	}
	if f, ok := numericString(s); ok {
		return unixProblem(f)
	}
	p := dtParser{s: s}
	return p.parse()
}

// numericString reads s as an optionally signed integer or decimal number
// (with an optional exponent when it has a decimal point), the forms of a
// Unix time given as text.
func numericString(s string) (float64, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		case (c == 'e' || c == 'E') && dot && digits > 0:
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j == len(s) {
				return 0, false
			}
			for ; j < len(s); j++ {
				if s[j] < '0' || s[j] > '9' {
					return 0, false
				}
			}
			i = len(s) - 1
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// dtParser reads an ISO 8601 date-time left to right.
type dtParser struct {
	s string
	i int
}

const dtFormat = "expected YYYY-MM-DD, optionally with a time (THH:MM[:SS[.fraction]]) and a zone (Z, +HH:MM or -HH:MM), or a Unix time"

func (p *dtParser) digits(n int) (int, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	v := 0
	for k := 0; k < n; k++ {
		c := p.s[p.i+k]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

func (p *dtParser) byte(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *dtParser) parse() string {
	year, ok := p.digits(4)
	if !ok || !p.byte('-') {
		return "invalid date-time format, " + dtFormat
	}
	month, ok := p.digits(2)
	if !ok || !p.byte('-') {
		return "invalid date-time format, " + dtFormat
	}
	day, ok := p.digits(2)
	if !ok {
		return "invalid date-time format, " + dtFormat
	}
	if year < 1 {
		return "year 0 is out of range"
	}
	if month < 1 || month > 12 {
		return fmt.Sprintf("month %d is out of range", month)
	}
	if day < 1 || day > daysIn(year, month) {
		return fmt.Sprintf("day %d is out of range for %04d-%02d", day, year, month)
	}
	if p.i == len(p.s) {
		return "" // date only: midnight
	}
	switch p.s[p.i] {
	case 'T', 't', ' ', '_':
		p.i++
	default:
		return "invalid date-time format, " + dtFormat
	}
	hour, ok := p.digits(2)
	if !ok || !p.byte(':') {
		return "invalid time, expected HH:MM[:SS[.fraction]]"
	}
	minute, ok := p.digits(2)
	if !ok {
		return "invalid time, expected HH:MM[:SS[.fraction]]"
	}
	if hour > 23 {
		return fmt.Sprintf("hour %d is out of range", hour)
	}
	if minute > 59 {
		return fmt.Sprintf("minute %d is out of range", minute)
	}
	if p.byte(':') {
		second, ok := p.digits(2)
		if !ok {
			return "invalid time, expected HH:MM[:SS[.fraction]]"
		}
		if second > 59 {
			return fmt.Sprintf("second %d is out of range", second)
		}
		if p.byte('.') || p.byte(',') {
			start := p.i
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				p.i++
			}
			if p.i == start {
				return "fraction of a second has no digits"
			}
		}
	}
	return p.zone()
}

func (p *dtParser) zone() string {
	if p.i == len(p.s) {
		return ""
	}
	switch {
	case p.byte('Z'), p.byte('z'):
	case p.byte('+'), p.byte('-'), p.minusSign():
		h, ok := p.digits(2)
		if !ok {
			return "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"
		}
		p.byte(':')
		m, ok := p.digits(2)
		if !ok {
			return "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"
		}
		if m > 59 || h > 23 {
			return "time zone offset out of range"
		}
	default:
		return "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"
	}
	if p.i != len(p.s) {
		return "unexpected characters after the date-time"
	}
	return ""
}

// minusSign accepts U+2212, the minus sign ISO 8601 allows for offsets.
func (p *dtParser) minusSign() bool {
	const minus = "\u2212"
	if len(p.s)-p.i >= len(minus) && p.s[p.i:p.i+len(minus)] == minus {
		p.i += len(minus)
		return true
	}
	return false
}

func daysIn(year, month int) int {
	switch month {
	case 4, 6, 9, 11:
		return 30
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31
}
