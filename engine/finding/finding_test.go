package finding

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompare(t *testing.T) {
	one, two := 1, 2
	in := []Finding{
		{File: "b.jsonl", Line: 1, Rule: "a"},
		{File: "a.jsonl", Line: 10, Rule: "a"},
		{File: "a.jsonl", Line: 2, Rule: "z"},
		{File: "a.jsonl", Line: 2, Rule: "m", MessageIndex: &two},
		{File: "a.jsonl", Line: 2, Rule: "m", MessageIndex: &one, Message: "y"},
		{File: "a.jsonl", Line: 2, Rule: "m", MessageIndex: &one, Message: "x"},
		{File: "a.jsonl", Line: 2, Rule: "m"},
	}
	slices.SortFunc(in, Compare)
	var got []string
	for _, f := range in {
		mi := -1
		if f.MessageIndex != nil {
			mi = *f.MessageIndex
		}
		got = append(got, f.File+":"+string(rune('0'+f.Line%10))+" "+f.Rule+" "+string(rune('0'+mi+1))+f.Message)
	}
	want := []string{
		"a.jsonl:2 m 0", // no message index sorts first
		"a.jsonl:2 m 2x",
		"a.jsonl:2 m 2y",
		"a.jsonl:2 m 3",
		"a.jsonl:2 z 0",
		"a.jsonl:0 a 0", // line 10
		"b.jsonl:1 a 0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestSeverity(t *testing.T) {
	for in, want := range map[string]Severity{"error": Error, "warning": Warning, "warn": Warning, "info": Info} {
		got, err := ParseSeverity(in)
		if err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal): want an error")
	}
	s := Summary{}
	for _, sev := range []Severity{Info, Warning, Warning} {
		s.Add(Finding{Severity: sev})
	}
	if s.Worst() != Warning || s.Warnings != 2 || s.Infos != 1 || (Summary{}).Worst() != 0 {
		t.Errorf("summary %+v, worst %v", s, s.Worst())
	}
}

func TestParseFailOn(t *testing.T) {
	for in, want := range map[string]Severity{"never": 0, "error": Error, "warning": Warning, "warn": Warning, "info": Info} {
		got, err := ParseFailOn(in)
		if err != nil || got != want {
			t.Errorf("ParseFailOn(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFailOn("fatal"); err == nil || err.Error() != `want error, warning, info or never, not "fatal"` {
		t.Errorf("ParseFailOn(fatal) error %v", err)
	}
}
