package py

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseDateTime(t *testing.T) {
	east := time.FixedZone("", 5*3600+30*60)
	west := time.FixedZone("", -(2 * 3600))
	tests := []struct {
		in   string
		want DateTime
		why  string
	}{
		{in: "2024-02-29", want: DateTime{T: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)}},
		{in: "2024-01-02T03:04", want: DateTime{T: time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC)}},
		{in: "2024-01-02 03:04:05.1234567Z", want: DateTime{T: time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC), Aware: true}},
		{in: "2024-01-02_03:04:05,5+0530", want: DateTime{T: time.Date(2024, 1, 2, 3, 4, 5, 500000000, east), Aware: true}},
		{in: "2024-01-02t03:04:05\u221202:00", want: DateTime{T: time.Date(2024, 1, 2, 3, 4, 5, 0, west), Aware: true}},
		{in: "1700000000", want: DateTime{T: time.Unix(1700000000, 0).UTC(), Aware: true}},
		{in: "1700000000500", want: DateTime{T: time.Unix(1700000000, 500e6).UTC(), Aware: true}},
		{in: "2023-02-29", why: "day 29 is out of range for 2023-02"},
		{in: "2024-01-02T03:04:05+24:00", why: "time zone offset out of range"},
		{in: "", why: "an empty string is not a date-time"},
		{in: "1e400", why: "invalid date-time format, " + dtFormat},
		{in: "9e99", why: "invalid date-time format, " + dtFormat},
		{in: "1.0e400", why: "not a finite number"},
	}
	for _, tt := range tests {
		got, why := ParseDateTime(tt.in)
		if why != tt.why {
			t.Errorf("ParseDateTime(%q) problem = %q, want %q", tt.in, why, tt.why)
			continue
		}
		if !got.T.Equal(tt.want.T) || got.Aware != tt.want.Aware || got.T.Format(time.RFC3339Nano) != tt.want.T.Format(time.RFC3339Nano) {
			t.Errorf("ParseDateTime(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDateTimeCompare(t *testing.T) {
	a, _ := ParseDateTime("2024-01-02T03:00:00+01:00")
	b, _ := ParseDateTime("2024-01-02T02:00:00Z")
	naive, _ := ParseDateTime("2024-01-02T02:00:00")
	type result struct {
		C  int
		OK bool
	}
	var got []result
	for _, pair := range [][2]DateTime{{a, b}, {a, naive}, {naive, naive}} {
		c, ok := pair[0].Compare(pair[1])
		got = append(got, result{c, ok})
	}
	want := []result{{0, true}, {0, false}, {0, true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Compare (-want +got):\n%s", d)
	}
}
