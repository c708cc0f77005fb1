package yamlrule

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func TestExtends(t *testing.T) {
	eqs := []equivalence{{earlier: []ast.Value{ast.String("Ac"), ast.String("At")}, later: []ast.Value{ast.String("Act")}}}
	arr := func(s string) list {
		var ts []*ast.Term
		for _, w := range strings.Fields(s) {
			ts = append(ts, ast.StringTerm(w))
		}
		return list{ast.NewArray(ts...)}
	}
	tests := []struct {
		earlier, later string
		want           bool
	}{
		{"", "", true},
		{"", "S", true},
		{"S U", "S U", true},
		{"S U T", "S U", false},
		{"S U", "U S U", false},
		{"S U Ac", "S U Ac At T", true}, // a prefix that stops inside a pair
		{"S U Ac At", "S U Act", true},  // the pair resent as one message
		{"S U Ac At T", "S U Act T Ac", true},
		{"S U Act T", "S U Ac At T", false}, // not the other way round
		{"S U Ac", "S U Act T", false},
		{"Ac At Ac", "Act Ac At", true},
		{"Ac Ac At", "Ac Act", true},
		{"Ac At", "Ac Act", false},
		{"Ac U", "Ac At U", false},
	}
	for _, tt := range tests {
		if got := extends(arr(tt.earlier), arr(tt.later), eqs); got != tt.want {
			t.Errorf("extends([%s], [%s]) = %v, want %v", tt.earlier, tt.later, got, tt.want)
		}
	}
	if extends(arr("Ac At"), arr("Act"), nil) {
		t.Error("without equivalences extends is a plain prefix")
	}
}

func TestInstant(t *testing.T) {
	tests := []struct {
		in   ast.Value
		want string // kind value, or "" for none
	}{
		{ast.String("2024-05-01T10:00:00Z"), "time 1714557600000000000"},
		{ast.String("2024-05-01T12:00:00+02:00"), "time 1714557600000000000"},
		{ast.String(" 2024-05-01 12:00:00+0200 "), "time 1714557600000000000"},
		{ast.String("2024-05-01t10:00:00,5z"), "time 1714557600500000000"},
		{ast.String("2024-05-01T10:00:00"), "time 1714557600000000000"},
		{ast.String("2024-02-30T10:00:00Z"), ""}, // no such day
		{ast.String("2024-13-01T10:00:00Z"), ""},
		{ast.String("2024-05-01T10:00Z"), ""},
		{ast.String("1600-01-01T00:00:00Z"), ""}, // beyond int64 nanoseconds
		{ast.String("yesterday"), ""},
		{ast.Number("1.5"), "number 1.5"},
		{ast.Boolean(true), ""},
		{nil, ""},
	}
	for _, tt := range tests {
		var got string
		if o, ok := instant(tt.in).(ast.Object); ok {
			got = string(o.Get(keyKindTerm).Value.(ast.String)) + " " + o.Get(keyValueTerm).Value.String()
		}
		if got != tt.want {
			t.Errorf("instant(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRenderFilters(t *testing.T) {
	long := strings.Repeat("é", 61)
	tests := []struct {
		filter string
		in     ast.Value
		want   string
	}{
		{"json", ast.String("<a&b>"), `"\u003ca\u0026b\u003e"`},
		{"json", nil, "null"},
		{"json", ast.MustParseTerm(`{"b": 1, "a": [true]}`).Value, `{"a":[true],"b":1}`},
		{"nth", ast.Number("0"), "1"},
		{"nth", ast.String("x"), ""},
		{"words", ast.MustParseTerm(`["S", "U", 5, null]`).Value, "S U 5 null"},
		{"words", nil, ""},
		{"q:60", ast.String(long[:len(long)-2]), `"` + long[:len(long)-2] + `"`},
		{"q:60", ast.String(long), `"` + long[:len(long)-2] + `"…`},
	}
	for _, tt := range tests {
		got, ok := renderFilter(tt.filter, tt.in)
		if !ok || got != tt.want {
			t.Errorf("%s %v = %q, %v; want %q", tt.filter, tt.in, got, ok, tt.want)
		}
	}
	for _, f := range []string{"q:0", "q:x", "upper"} {
		if knownFilter(f) {
			t.Errorf("%s is not a filter", f)
		}
	}
}
