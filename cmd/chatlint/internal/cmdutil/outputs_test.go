package cmdutil

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOutputsPerCommand(t *testing.T) {
	tests := []struct {
		command string
		values  []string
		want    []OutputSpec
		wantErr string
	}{
		{"check", nil, []OutputSpec{{Format: "text"}}, ""},
		{"check", []string{"sarif=r.sarif", "json"}, []OutputSpec{{Format: "sarif", File: "r.sarif"}, {Format: "json"}}, ""},
		{"check", []string{"xml"}, nil, `unknown output format "xml" (want github, html, json, jsonl, junit, sarif or text, optionally =FILE)`},
		{"check", []string{"markdown"}, nil, `unknown output format "markdown"`},
		{"check", []string{"text", "json"}, nil, "both text and json would write to stdout"},
		{"stats", nil, []OutputSpec{{Format: "text"}}, ""},
		{"stats", []string{"json=s.json", "html=s.html", "text=-"}, []OutputSpec{{Format: "json", File: "s.json"}, {Format: "html", File: "s.html"}, {Format: "text"}}, ""},
		{"stats", []string{"html"}, nil, "stats html goes to a file: -o html=FILE"},
		{"stats", []string{"sarif=x"}, nil, `unknown output format "sarif" (want text or json, optionally =FILE, or html=FILE)`},
		{"repair", []string{"json", "text=r.txt"}, []OutputSpec{{Format: "json"}, {Format: "text", File: "r.txt"}}, ""},
		{"repair", []string{"xml"}, nil, `unknown output format "xml" (want text or json, optionally =FILE)`},
		{"repair", []string{"json=a", "text=a"}, nil, "a is named by two outputs"},
		{"rules", []string{"markdown=rules.md"}, []OutputSpec{{Format: "markdown", File: "rules.md"}}, ""},
		{"rules", []string{"yaml"}, nil, `unknown output format "yaml" (want text, json or markdown, optionally =FILE)`},
		{"validate-input", nil, nil, ""},
		{"validate-input", []string{"json=r.json"}, []OutputSpec{{Format: "json", File: "r.json"}}, ""},
		{"validate-input", []string{"json"}, nil, "validate-input json goes to a file: -o json=FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.command+" "+strings.Join(tt.values, " "), func(t *testing.T) {
			got, err := ParseOutputs(tt.command, tt.values)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("specs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteOutputsRefusesInputsAndKeepsNoHalfFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "data.jsonl")
	if err := os.WriteFile(in, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(format string, w io.Writer) error { _, err := io.WriteString(w, format); return err }

	// An output that is an input is a usage error, and the input is kept.
	err := WriteOutputs([]OutputSpec{{Format: "json", File: in}}, io.Discard, []string{in}, write)
	var ue *ExitCode
	if !errors.As(err, &ue) || ue.Code != ExitError {
		t.Fatalf("err = %v, want a usage error", err)
	}
	if b, _ := os.ReadFile(in); string(b) != "{}\n" {
		t.Fatalf("input changed: %q", b)
	}

	// A failed write leaves no file; stdout and files get their format.
	var out bytes.Buffer
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.txt")
	specs := []OutputSpec{{Format: "json", File: a}, {Format: "text"}, {Format: "md", File: b}}
	boom := errors.New("boom")
	err = WriteOutputs(specs, &out, []string{in}, func(format string, w io.Writer) error {
		if format == "md" {
			return boom
		}
		return write(format, w)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "json" || out.String() != "text" {
		t.Errorf("a = %q, stdout = %q", got, out.String())
	}
	if _, err := os.Stat(b); !os.IsNotExist(err) {
		t.Errorf("%s left behind after a failed write: %v", b, err)
	}
}
