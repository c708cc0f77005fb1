package builtins

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

func TestDateTimeProblem(t *testing.T) {
	accepted := []struct {
		name string
		json string
	}{
		{"Z", `"2026-02-10T12:34:56Z"`},
		{"lower z", `"2026-02-10T12:34:56z"`},
		{"offset", `"2026-02-10T12:34:56+05:30"`},
		{"negative offset", `"2026-02-10T12:34:56-08:00"`},
		{"offset without colon", `"2026-02-10T12:34:56+0530"`},
		{"unicode minus offset", `"2026-02-10T12:34:56` + "\u2212" + `08:00"`},
		{"no zone", `"2026-02-10T12:34:56"`},
		{"lower t", `"2026-02-10t12:34:56"`},
		{"space separator", `"2026-02-10 12:34:56"`},
		{"underscore separator", `"2026-02-10_12:34:56"`},
		{"date only", `"2026-02-10"`},
		{"minutes only", `"2026-02-10T12:34"`},
		{"minutes with zone", `"2026-02-10T12:34Z"`},
		{"fraction 1 digit", `"2026-02-10T12:34:56.1Z"`},
		{"fraction 6 digits", `"2026-02-10T12:34:56.123456Z"`},
		{"fraction 9 digits", `"2026-02-10T12:34:56.123456789Z"`},
		{"fraction comma", `"2026-02-10T12:34:56,5"`},
		{"leap day", `"2024-02-29T00:00:00Z"`},
		{"year 2000 leap day", `"2000-02-29"`},
		{"end of day", `"2026-12-31T23:59:59Z"`},
		{"unix int", `1770726896`},
		{"unix float", `1770726896.5`},
		{"unix ms", `1770726896000`},
		{"unix negative", `-86400`},
		{"unix zero", `0`},
		{"unix string", `"1770726896"`},
		{"unix float string", `"1770726896.25"`},
		{"unix signed string", `"+1770726896"`},
		{"numeric string looking like a year", `"2026"`},
	}
	rejected := []struct {
		name, json, want string
	}{
		{"month 13", `"2026-13-01T00:00:00Z"`, "month 13 is out of range"},
		{"month 0", `"2026-00-01"`, "month 0 is out of range"},
		{"Feb 30", `"2026-02-30T00:00:00Z"`, "day 30 is out of range for 2026-02"},
		{"Feb 29 not leap", `"2026-02-29"`, "day 29 is out of range for 2026-02"},
		{"1900 not leap", `"1900-02-29"`, "day 29 is out of range for 1900-02"},
		{"April 31", `"2026-04-31"`, "day 31 is out of range for 2026-04"},
		{"day 0", `"2026-01-00"`, "day 0 is out of range for 2026-01"},
		{"year 0", `"0000-01-01"`, "year 0 is out of range"},
		{"hour 25", `"2026-02-10T25:00:00Z"`, "hour 25 is out of range"},
		{"hour 24", `"2026-02-10T24:00:00Z"`, "hour 24 is out of range"},
		{"minute 60", `"2026-02-10T12:60:00Z"`, "minute 60 is out of range"},
		{"leap second", `"2026-02-10T12:34:60Z"`, "second 60 is out of range"},
		{"empty", `""`, "an empty string is not a date-time"},
		{"RFC 1123", `"Tue, 10 Feb 2026 12:34:56 GMT"`, "invalid date-time format, " + dtFormat},
		{"slashes", `"2026/02/10"`, "invalid date-time format, " + dtFormat},
		{"short year", `"26-02-10"`, "invalid date-time format, " + dtFormat},
		{"hour only", `"2026-02-10T12"`, "invalid time, expected HH:MM[:SS[.fraction]]"},
		{"bad separator", `"2026-02-10X12:34:56"`, "invalid date-time format, " + dtFormat},
		{"no fraction digits", `"2026-02-10T12:34:56.Z"`, "fraction of a second has no digits"},
		{"offset hours only", `"2026-02-10T12:34:56+05"`, "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"},
		{"offset 24h", `"2026-02-10T12:34:56+24:00"`, "time zone offset out of range"},
		{"offset minute 60", `"2026-02-10T12:34:56+05:60"`, "time zone offset out of range"},
		{"named zone", `"2026-02-10T12:34:56 UTC"`, "invalid time zone, expected Z, +HH:MM, -HH:MM, +HHMM or -HHMM"},
		{"trailing text", `"2026-02-10T12:34:56Zx"`, "unexpected characters after the date-time"},
		{"leading space", `" 2026-02-10"`, "invalid date-time format, " + dtFormat},
		{"trailing space", `"2026-02-10 "`, "invalid time, expected HH:MM[:SS[.fraction]]"},
		{"word", `"yesterday"`, "invalid date-time format, " + dtFormat},
		{"exponent without point", `"1e9"`, "invalid date-time format, " + dtFormat},
		{"true", `true`, "a boolean is not a date-time"},
		{"false", `false`, "a boolean is not a date-time"},
		{"null", `null`, "null is not a date-time"},
		{"array", `[2026, 2, 10]`, "an array is not a date-time"},
		{"object", `{"$date": "2026-02-10T12:34:56Z"}`, "an object is not a date-time"},
		{"unix too large", `1e20`, "Unix time out of range, years 1 to 9999"},
		{"unix too small", `-1e15`, "Unix time out of range, years 1 to 9999"},
		{"unix string too large", `"99999999999999999"`, "Unix time out of range, years 1 to 9999"},
	}
	for _, tc := range accepted {
		t.Run("accept/"+tc.name, func(t *testing.T) {
			if got := DateTimeProblem(ast.MustParseTerm(tc.json).Value); got != "" {
				t.Errorf("DateTimeProblem(%s) = %q, want accepted", tc.json, got)
			}
		})
	}
	for _, tc := range rejected {
		t.Run("reject/"+tc.name, func(t *testing.T) {
			if got := DateTimeProblem(ast.MustParseTerm(tc.json).Value); got != tc.want {
				t.Errorf("DateTimeProblem(%s) = %q, want %q", tc.json, got, tc.want)
			}
		})
	}
}

// TestDateTimeBuiltins calls the builtins from Rego, as a pack does.
func TestDateTimeBuiltins(t *testing.T) {
	tests := []struct {
		query string
		want  any
	}{
		{`chatlint.datetime_valid("2026-02-10T12:34:56Z")`, true},
		{`chatlint.datetime_valid("2026-02-30")`, false},
		{`chatlint.datetime_valid(true)`, false},
		{`chatlint.datetime_problem("2026-02-10")`, ""},
		{`chatlint.datetime_problem("2026-02-10T25:00")`, "hour 25 is out of range"},
	}
	for _, tc := range tests {
		rs, err := rego.New(rego.Query(tc.query)).Eval(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if len(rs) != 1 || rs[0].Expressions[0].Value != tc.want {
			t.Errorf("%s = %v, want %v", tc.query, rs, tc.want)
		}
	}
}

// dtFormat is the format the messages about a malformed date-time spell out.
const dtFormat = "expected YYYY-MM-DD, optionally with a time (THH:MM[:SS[.fraction]]) and a zone (Z, +HH:MM or -HH:MM), or a Unix time"
