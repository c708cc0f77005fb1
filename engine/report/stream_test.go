package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/spill"
)

// manyFindings returns n findings, each with its own message of size bytes.
func streamFindings(n, size int) []finding.Finding {
	fs := make([]finding.Finding, n)
	for i := range fs {
		mi := i % 7
		fs[i] = finding.Finding{Rule: fmt.Sprintf("rule-%d", i%5), Severity: finding.Severity(i%3 + 1),
			Message: fmt.Sprintf("%d <&> %s", i, strings.Repeat("m", size)), File: fmt.Sprintf("f%d.jsonl", i%3),
			Line: i + 1, Pack: "p", Record: fmt.Sprint("r", i), MessageIndex: &mi, Path: "/messages/1", RecordHash: "h"}
	}
	return fs
}

// referenceJSON is the JSON report as it was written before it streamed:
// the whole object through one encoder.
func referenceJSON(fs []finding.Finding, s finding.Summary) string {
	if fs == nil {
		fs = []finding.Finding{}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.Encode(struct {
		Summary  finding.Summary   `json:"summary"`
		Findings []finding.Finding `json:"findings"`
	}{s, fs})
	return b.String()
}

// referenceSARIF is the SARIF log as it was written before it streamed: every
// result in the run, then the library's PrettyWrite of the whole log.
func referenceSARIF(t *testing.T, o Options, fs []finding.Finding, sum finding.Summary) string {
	s := newSARIFWriter(io.Discard, o).(*sarifWriter)
	for _, f := range fs {
		s.run.AddResult(s.result(f))
	}
	s.addRules()
	s.addInvocation(sum)
	rep := sarif.NewReport()
	rep.AddRun(s.run)
	var b bytes.Buffer
	if err := rep.PrettyWrite(&b); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

// TestStreamedReportsUnchanged: the streamed JSON and SARIF reports are the
// bytes the buffered writers produced, in memory and spilled to disk.
func TestStreamedReportsUnchanged(t *testing.T) {
	defer func(n int) { spill.Memory = n }(spill.Memory)
	sum := finding.Summary{Files: 3, Records: 9, Errors: 2}
	o := Options{Rules: rules(), Version: "v1"}
	for _, mem := range []int{4 << 20, 100} {
		spill.Memory = mem
		for _, n := range []int{0, 1, 2, 40} {
			fs := append(findings(), streamFindings(n, 10)...)[:n]
			t.Run(fmt.Sprintf("mem=%d/n=%d", mem, n), func(t *testing.T) {
				if d := cmp.Diff(referenceJSON(fs, sum), writeWith(t, "json", o, fs, sum)); d != "" {
					t.Errorf("json (-old +new):\n%s", d)
				}
				if d := cmp.Diff(referenceSARIF(t, o, fs, sum), writeWith(t, "sarif", o, fs, sum)); d != "" {
					t.Errorf("sarif (-old +new):\n%s", d)
				}
			})
		}
	}
}

// TestStreamedReportsBoundedMemory feeds tens of megabytes of findings to the
// JSON and SARIF writers: the heap must not hold them (the writers used to
// keep every finding until Close).
func TestStreamedReportsBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes tens of megabytes")
	}
	const n, size = 20000, 1000 // 20 MB of messages
	for _, format := range []string{"json", "sarif", "junit"} {
		t.Run(format, func(t *testing.T) {
			w, err := NewWith(format, io.Discard, Options{Rules: rules()})
			if err != nil {
				t.Fatal(err)
			}
			before := heap()
			for i := range n {
				// Built one at a time: only the writer can keep them alive.
				f := streamFindings(1, size)[0]
				f.Line, f.Message = i+1, fmt.Sprint(i, f.Message)
				if err := w.Finding(f); err != nil {
					t.Fatal(err)
				}
			}
			grown := int64(heap()) - int64(before)
			if err := w.Close(finding.Summary{}); err != nil {
				t.Fatal(err)
			}
			if limit := int64(spill.Memory + 4<<20); grown > limit {
				t.Errorf("heap grew %d MB over %d findings of %d bytes, want at most %d MB", grown>>20, n, size, limit>>20)
			}
		})
	}
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
