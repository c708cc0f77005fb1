package py

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Date-times as pydantic reads them. The contract validator and the proxy-log
// converter both model their timestamps as pydantic datetimes, so both drop-in
// commands share this one reading: a string YYYY-MM-DD, optionally followed by
// T, t, a space or _ and HH:MM, HH:MM:SS or HH:MM:SS.F (any number of fraction
// digits, . or ,), optionally followed by Z, z or an offset ±HH:MM or ±HHMM
// under 24 hours; or a Unix time (seconds, or milliseconds above 2e10 in
// magnitude) as a number or as a string holding an integer or decimal number.
// Dates must exist (no month 13, no February 30) and fall between the years 1
// and 9999, the range of Python's datetime.

// DateTime is a parsed date-time: with an offset (aware) or without (naive).
// Aware times compare as instants, naive ones as wall clocks, and one of each
// cannot be compared.
type DateTime struct {
	T     time.Time // the wall clock in its own offset; UTC for naive times
	Aware bool
}

// Compare orders two date-times; ok is false for a naive and an aware one.
func (a DateTime) Compare(b DateTime) (c int, ok bool) {
	if a.Aware != b.Aware {
		return 0, false
	}
	return a.T.Compare(b.T), true
}

// Date is the calendar date in the date-time's own offset.
func (a DateTime) Date() string { return a.T.Format("2006-01-02") }

// Unix times whose magnitude is above msWatershed are milliseconds, as
// pydantic reads them: 2e10 seconds is the year 2603, 2e10 ms is 1970.
const msWatershed = 2e10

// Bounds of a representable date-time in Unix seconds: 0001-01-01T00:00:00
// and 9999-12-31T23:59:59, the range of Python's datetime.
const (
	minUnix = -62135596800
	maxUnix = 253402300799
)

// UnixDateTime reads seconds since the epoch, or milliseconds when the number
// is too large to be seconds, as an aware UTC time with microseconds. problem
// is "" when f is accepted, else why not.
func UnixDateTime(f float64) (dt DateTime, problem string) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return DateTime{}, "not a finite number"
	}
	var sec, usec float64
	if math.Abs(f) > msWatershed {
		sec = math.Floor(f / 1000)
		usec = math.Round((f - sec*1000) * 1000)
	} else {
		sec = math.Floor(f)
		usec = math.Round((f - sec) * 1e6)
	}
	if sec < minUnix || sec > maxUnix {
		return DateTime{}, "Unix time out of range, years 1 to 9999"
	}
	return DateTime{T: time.Unix(int64(sec), int64(usec)*1000).UTC(), Aware: true}, ""
}

// ParseDateTime reads a date-time string, ISO 8601 or a Unix time as text.
// problem is "" when s is accepted, else why not.
func ParseDateTime(s string) (dt DateTime, problem string) {
	if s == "" {
		return DateTime{}, "an empty string is not a date-time"
	}
	if f, ok := numericString(s); ok {
		return UnixDateTime(f)
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

	year, month, day, hour, minute, second, usec int
	zoned                                        bool // Z or an offset was given
	offset                                       int  // seconds east of UTC
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

func (p *dtParser) parse() (DateTime, string) {
	if why := p.read(); why != "" {
		return DateTime{}, why
	}
	loc, aware := time.UTC, p.zoned
	if p.offset != 0 {
		loc = time.FixedZone("", p.offset)
	}
	return DateTime{T: time.Date(p.year, time.Month(p.month), p.day, p.hour, p.minute, p.second, p.usec*1000, loc), Aware: aware}, ""
}

// read parses the whole string into p's fields; it returns why the string
// is not a date-time, or "".
func (p *dtParser) read() string {
	var ok bool
	p.year, ok = p.digits(4)
	if !ok || !p.byte('-') {
		return "invalid date-time format, " + dtFormat
	}
	p.month, ok = p.digits(2)
	if !ok || !p.byte('-') {
		return "invalid date-time format, " + dtFormat
	}
	p.day, ok = p.digits(2)
	if !ok {
		return "invalid date-time format, " + dtFormat
	}
	if p.year < 1 {
		return "year 0 is out of range"
	}
	if p.month < 1 || p.month > 12 {
		return fmt.Sprintf("month %d is out of range", p.month)
	}
	if p.day < 1 || p.day > DaysIn(p.year, p.month) {
		return fmt.Sprintf("day %d is out of range for %04d-%02d", p.day, p.year, p.month)
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
	p.hour, ok = p.digits(2)
	if !ok || !p.byte(':') {
		return "invalid time, expected HH:MM[:SS[.fraction]]"
	}
	p.minute, ok = p.digits(2)
	if !ok {
		return "invalid time, expected HH:MM[:SS[.fraction]]"
	}
	if p.hour > 23 {
		return fmt.Sprintf("hour %d is out of range", p.hour)
	}
	if p.minute > 59 {
		return fmt.Sprintf("minute %d is out of range", p.minute)
	}
	if p.byte(':') {
		p.second, ok = p.digits(2)
		if !ok {
			return "invalid time, expected HH:MM[:SS[.fraction]]"
		}
		if p.second > 59 {
			return fmt.Sprintf("second %d is out of range", p.second)
		}
		if p.byte('.') || p.byte(',') {
			start := p.i
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				// datetime keeps microseconds: later digits are read, not kept
				if p.i-start < 6 {
					p.usec = p.usec*10 + int(p.s[p.i]-'0')
				}
				p.i++
			}
			if p.i == start {
				return "fraction of a second has no digits"
			}
			for k := p.i - start; k < 6; k++ {
				p.usec *= 10
			}
		}
	}
	return p.zone()
}

func (p *dtParser) zone() string {
	if p.i == len(p.s) {
		return ""
	}
	sign := 1
	switch {
	case p.byte('Z'), p.byte('z'):
		p.zoned = true
	case p.byte('+'):
	case p.byte('-'), p.minusSign():
		sign = -1
	default:
		return "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"
	}
	if !p.zoned {
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
		p.zoned, p.offset = true, sign*(h*3600+m*60)
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

// DaysIn is the number of days of a month in the proleptic Gregorian calendar.
func DaysIn(year, month int) int {
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
