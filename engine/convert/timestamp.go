package convert

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Timestamp is an entry's time as the reference's model reads it (a pydantic
// datetime): with an offset (aware) or without (naive). Aware times compare as
// instants, naive ones as wall clocks, and one of each cannot be compared.
type Timestamp struct {
	T     time.Time // the wall clock in its own offset; UTC for naive times
	Aware bool
}

// Compare orders two timestamps; ok is false for a naive and an aware one.
func (a Timestamp) Compare(b Timestamp) (c int, ok bool) {
	if a.Aware != b.Aware {
		return 0, false
	}
	return a.T.Compare(b.T), true
}

// Date is the calendar date in the timestamp's own offset.
func (a Timestamp) Date() string { return a.T.Format("2006-01-02") }

// isoDateTime is the string form pydantic accepts: a date, optionally a time
// after T, t, a space or _, seconds and a fraction (. or ,) optional, and an
// offset Z, z, ±HH:MM or ±HHMM.
var isoDateTime = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[Tt _](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$`)

// unixString is a number given as a string, read as Unix time.
var unixString = regexp.MustCompile(`^[-+]?(?:\d+\.?\d*|\.\d+)$`)

// parseTimestamp reads a timestamp value; ok is false when the reference's
// model would reject it.
func parseTimestamp(v any) (Timestamp, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return Timestamp{}, false
		}
		return unixTimestamp(f)
	case string:
		if unixString.MatchString(t) {
			f, err := strconv.ParseFloat(t, 64)
			if err != nil {
				return Timestamp{}, false
			}
			return unixTimestamp(f)
		}
		return isoTimestamp(t)
	}
	return Timestamp{}, false
}

// unixTimestamp reads seconds since the epoch, or milliseconds when the
// number is too large to be seconds, as an aware UTC time with microseconds.
func unixTimestamp(f float64) (Timestamp, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Timestamp{}, false
	}
	var sec, usec float64
	if math.Abs(f) > 2e10 { // milliseconds
		sec = math.Floor(f / 1000)
		usec = math.Round((f - sec*1000) * 1000)
	} else {
		sec = math.Floor(f)
		usec = math.Round((f - sec) * 1e6)
	}
	if sec >= 253402300800 || sec < -62135596800 { // years 1..9999
		return Timestamp{}, false
	}
	return Timestamp{T: time.Unix(int64(sec), int64(usec)*1000).UTC(), Aware: true}, true
}

func isoTimestamp(s string) (Timestamp, bool) {
	m := isoDateTime.FindStringSubmatch(s)
	if m == nil {
		return Timestamp{}, false
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	year, month, day := num(1), num(2), num(3)
	hour, minute, sec := num(4), num(5), num(6)
	if year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || sec > 59 {
		return Timestamp{}, false
	}
	frac := m[7]
	if len(frac) > 6 {
		frac = frac[:6] // datetime keeps microseconds
	}
	usec := 0
	if frac != "" {
		usec, _ = strconv.Atoi(frac + strings.Repeat("0", 6-len(frac)))
	}
	loc, aware := time.UTC, false
	switch off := m[8]; {
	case off == "":
	case off == "Z" || off == "z":
		aware = true
	default:
		digits := strings.ReplaceAll(off[1:], ":", "")
		h, _ := strconv.Atoi(digits[:2])
		mi, _ := strconv.Atoi(digits[2:])
		if h > 23 || mi > 59 {
			return Timestamp{}, false
		}
		secs := h*3600 + mi*60
		if off[0] == '-' {
			secs = -secs
		}
		loc, aware = time.FixedZone("", secs), true
	}
	return Timestamp{T: time.Date(year, time.Month(month), day, hour, minute, sec, usec*1000, loc), Aware: aware}, true
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
