package pipeline

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestReadFixChangedFile: a file that changes between the scan for long
// lines and the read fails its bundle, whichever way it changed, rather
// than writing it without a line or dropping it with no note; a file that
// does not change is read as it is.
func TestReadFixChangedFile(t *testing.T) {
	const max = 100
	short := `{"messages":[{"role":"user","content":"hi"}]}` + "\n"
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("z", max) + `"}]}` + "\n"
	tests := []struct {
		name        string
		size        int64    // the size the file was listed with
		reads       []string // what each open of the file gives
		wantUnits   int
		wantErr     string
		wantFinding bool // a line-too-long note
	}{
		{"no long line", int64(len(short + short)), []string{short + short}, 2, "", false},
		{"a long line", int64(len(short + long)), []string{short + long, short + long}, 0, "", true},
		{"a long .gz line", 1, []string{short + long, short + long}, 0, "", true},
		{"a long line appears: listed small, not scanned", int64(len(short)), []string{short + long}, 1, "line 2 is over --max-line-size, but the file held no such line", true},
		{"a long line appears after the scan", int64(len(short + long)), []string{short + short, short + long}, 1, "line 2 is over --max-line-size, but the file held no such line", true},
		{"the long line goes after the scan", int64(len(short + long)), []string{short + long, short + short}, 0, "a line over --max-line-size was found, then not when the file was read", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "d.jsonl"
			if strings.Contains(tt.name, ".gz") {
				name = "d.jsonl.gz" // read here as it is: Beam's fileio decompresses
			}
			opens := 0
			open := func() (io.ReadCloser, error) {
				if opens >= len(tt.reads) {
					t.Fatalf("opened %d times, want %d", opens+1, len(tt.reads))
				}
				opens++
				return io.NopCloser(bytes.NewReader([]byte(tt.reads[opens-1]))), nil
			}
			var notes []string
			out := &output{finding: func(s string) { notes = append(notes, s) }, tally: func(Tally) {}}
			units := 0
			err := (&ReadFn{Fix: true, MaxLineSize: max}).readFix(context.Background(), name, tt.size, open, func(Unit) { units++ }, out)
			if got := errText(err); !strings.Contains(got, tt.wantErr) || (tt.wantErr == "") != (err == nil) {
				t.Errorf("error %q, want one holding %q", got, tt.wantErr)
			}
			if opens != len(tt.reads) {
				t.Errorf("opened %d times, want %d", opens, len(tt.reads))
			}
			if units != tt.wantUnits {
				t.Errorf("%d units emitted, want %d", units, tt.wantUnits)
			}
			found := len(notes) == 1 && strings.Contains(notes[0], `"rule":"line-too-long"`)
			if found != tt.wantFinding || len(notes) > 1 {
				t.Errorf("notes %q; want a line-too-long note: %v", notes, tt.wantFinding)
			}
			if tt.wantFinding && tt.wantErr == "" && !strings.Contains(notes[0], "(nothing is written for this file)") {
				t.Errorf("note %s does not say the file is not written", notes[0])
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestMayHoldLongLine: the scan is skipped only for a file too small to
// hold a line over the bound once read.
func TestMayHoldLongLine(t *testing.T) {
	tests := []struct {
		name string
		size int64
		want bool
	}{
		{"a.jsonl", 100, false},
		{"a.jsonl", 101, true},
		{"a.jsonl", 0, true}, // size unknown
		{"a.jsonl.gz", 10, true},
	}
	for _, tt := range tests {
		if got := mayHoldLongLine(tt.name, tt.size, 100); got != tt.want {
			t.Errorf("mayHoldLongLine(%s, %d, 100) = %v, want %v", tt.name, tt.size, got, tt.want)
		}
	}
}
