package runner

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// batchInputs are inputs that exercise every path of the reader: records
// held for detection, a session gathered whole, lines that are no object, a
// line over the bound, a .json document, an input that cannot be opened,
// one that is empty, and files of many records of mixed sizes so that
// batches span records, files and slab chunks.
func batchInputs(t *testing.T) []Input {
	t.Helper()
	dir := t.TempDir()
	write := func(name, content string) Input {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return Input{Name: name, Path: p}
	}
	chat := `{"id":"c%d","messages":[{"role":"user","content":"%s"},{"role":"assistant","content":"a"}]}`
	var many strings.Builder
	for i := range 700 {
		switch {
		case i%97 == 5:
			many.WriteString("[1]\n")
		case i%131 == 9:
			fmt.Fprintf(&many, chat+"\n", i, strings.Repeat("y", 3000)) // over --max-line-size
		default:
			fmt.Fprintf(&many, chat+"\n", i, strings.Repeat("x", (i*53)%1500))
		}
	}
	return []Input{
		write("a.jsonl", fmt.Sprintf(chat, 1, "q")+"\n\n"+"[1]\n"+fmt.Sprintf(chat, 2, "q")+"\n"),
		write("many.jsonl", many.String()),
		write("b.json", "[\n"+fmt.Sprintf(chat, 3, "q")+",\n"+fmt.Sprintf(chat, 4, "q")+"\n]\n"),
		write("c.jsonl", `{"type":"session","id":"s1"}`+"\n"+
			`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"q"}]}}`+"\n"+
			"{oops\n"+
			`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}`+"\n"),
		write("d.jsonl", "not json\n"+`{"dialogue":[]}`+"\n"+`{"dialogue":[]}`+"\n"),
		write("e.jsonl", strings.Repeat(`{"note":1}`+"\n", 3)+fmt.Sprintf(chat, 5, "q")+"\n"),
		{Name: "missing.jsonl", Path: filepath.Join(dir, "missing.jsonl")},
		write("empty.jsonl", "\n"),
		write("many2.jsonl", many.String()),
	}
}

// jobView is what a worker was handed, as comparable values.
type jobView struct {
	File, Format string
	Lines        []int
	Raw          []string
	Finding      string
	End          bool
	Err          string
}

func viewJob(j Job) jobView {
	v := jobView{File: j.File, Format: string(j.Format), End: j.End}
	for _, r := range j.Records {
		v.Lines = append(v.Lines, r.Line)
		v.Raw = append(v.Raw, string(r.Raw))
	}
	if j.Finding != nil {
		v.Finding = fmt.Sprintf("%s:%d %s", j.Finding.File, j.Finding.Line, j.Finding.Rule)
	}
	if j.Err != nil {
		v.Err = j.Err.Error()
	}
	return v
}

// eachViews runs Each with the batch size given and returns what emit got:
// the jobs as the workers saw them (each worker sleeping a little at random,
// so that batches finish out of order), with the totals and errors.
func eachViews(t *testing.T, batchSize int, inputs []Input) ([]jobView, Totals, []error) {
	t.Helper()
	r := &Runner{Opts: Options{Workers: 3, Batch: batchSize, MaxLineSize: 2048, RecordHashes: true}}
	var got []jobView
	tot, errs := Each(context.Background(), r, inputs, func() func(Job) jobView {
		return func(j Job) jobView {
			if rand.IntN(8) == 0 {
				time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			}
			return viewJob(j)
		}
	}, func(v jobView) { got = append(got, v) })
	return got, tot, errs
}

// TestBatchSizesSameJobs: however jobs are batched (one by one, fixed
// counts, or sized by the workers' pace), emit gets the same jobs in the
// same order, with the same records, End jobs and per-input errors; and
// check's findings and summary are the same.
func TestBatchSizesSameJobs(t *testing.T) {
	inputs := batchInputs(t)
	want, wantTot, wantErrs := eachViews(t, 1, inputs)
	if len(want) < 1000 || len(wantErrs) != 1 {
		t.Fatalf("reference run: %d jobs, errors %v; want over 1000 jobs and the missing file", len(want), wantErrs)
	}
	wantFindings, wantSum := runFindings(t, 1, inputs)
	for _, size := range []int{2, 7, 64, 1000, 0} {
		t.Run(fmt.Sprint("batch ", size), func(t *testing.T) {
			got, tot, errs := eachViews(t, size, inputs)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("jobs emitted (-batch 1 +batch %d):\n%s", size, diff)
			}
			if diff := cmp.Diff(wantTot, tot); diff != "" {
				t.Errorf("totals (-batch 1 +batch %d):\n%s", size, diff)
			}
			if diff := cmp.Diff(fmt.Sprint(wantErrs), fmt.Sprint(errs)); diff != "" {
				t.Errorf("errors (-batch 1 +batch %d):\n%s", size, diff)
			}
			findings, sum := runFindings(t, size, inputs)
			if diff := cmp.Diff(wantFindings, findings); diff != "" {
				t.Errorf("findings (-batch 1 +batch %d):\n%s", size, diff)
			}
			if diff := cmp.Diff(wantSum, sum); diff != "" {
				t.Errorf("summary (-batch 1 +batch %d):\n%s", size, diff)
			}
		})
	}
}

func runFindings(t *testing.T, batchSize int, inputs []Input) ([]string, finding.Summary) {
	t.Helper()
	r := &Runner{Engine: engine(t), Opts: Options{Workers: 3, Batch: batchSize, MaxLineSize: 2048, RecordHashes: true}}
	var got []string
	sum, _ := r.Run(context.Background(), inputs, func(f finding.Finding) {
		got = append(got, fmt.Sprintf("%s:%d %s %s %s", f.File, f.Line, f.Rule, f.Message, f.RecordHash))
	})
	return got, sum
}

// TestBatchStopsWhenCancelled: a run cancelled midway returns, whatever
// the batch size, and what it emitted is the start of the full sequence.
func TestBatchStopsWhenCancelled(t *testing.T) {
	inputs := batchInputs(t)
	want, _, _ := eachViews(t, 1, inputs)
	for _, size := range []int{1, 7, 0} {
		ctx, cancel := context.WithCancel(context.Background())
		r := &Runner{Opts: Options{Workers: 2, Batch: size, MaxLineSize: 2048}}
		var got []jobView
		Each(ctx, r, inputs, func() func(Job) jobView { return viewJob }, func(v jobView) {
			got = append(got, v)
			if len(got) == 100 {
				cancel()
			}
		})
		cancel()
		if len(got) < 100 || len(got) >= len(want) {
			t.Errorf("batch %d: %d jobs emitted, want the run to stop after 100 of %d", size, len(got), len(want))
			continue
		}
		if diff := cmp.Diff(want[:len(got)], got); diff != "" {
			t.Errorf("batch %d: what was emitted is not the start of the full run (-want +got):\n%s", size, diff)
		}
	}
}

// TestRecordsIntactAfterReaderReuse: the records workers get were copied
// out of the reader's buffers (into a batch's slab, or on their own), so
// every one of them still holds its own bytes once the reader has read the
// whole input, reusing its buffers line after line; the race detector
// (go test -race) sees the reader never write what a worker reads.
func TestRecordsIntactAfterReaderReuse(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 3000 {
		n := (i * 7919) % 6000
		if i%500 == 3 {
			n = 150 << 10 // past bufio's 64 KB: gathered in the reader's own buffer
		}
		line := fmt.Sprintf(`{"id":"c%d","messages":[{"role":"user","content":"%s"}]}`+"\n", i, strings.Repeat(string(rune('a'+i%26)), n))
		want = append(want, line)
		in.WriteString(line)
	}
	for _, size := range []int{1, 64, 0} {
		r := &Runner{Opts: Options{Workers: 2, Batch: size}}
		var kept []jsonl.Record
		_, errs := Each(context.Background(), r, []Input{{Name: "x.jsonl", Reader: strings.NewReader(in.String())}},
			func() func(Job) []jsonl.Record {
				return func(j Job) []jsonl.Record {
					for _, rec := range j.Records {
						_ = append(rec.Raw, "appended by a worker"...) // must not reach a neighbour
					}
					return j.Records
				}
			},
			func(recs []jsonl.Record) { kept = append(kept, recs...) })
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if len(kept) != len(want) {
			t.Fatalf("batch %d: %d records, want %d", size, len(kept), len(want))
		}
		for i, rec := range kept {
			if string(rec.Raw) != want[i] || string(rec.Data) != strings.TrimSuffix(want[i], "\n") {
				t.Fatalf("batch %d: record %d changed after the reader read on:\n got %.80q…\nwant %.80q…", size, i+1, rec.Raw, want[i])
			}
		}
	}
}

// TestBatchWeightChargesSlab: a batch's share of the budget counts the slab
// chunk its records were copied into whole, since the chunk lives while any
// of them is in flight, and no later batch's record goes into it; records
// that own their bytes count their size. Each record is borrowed from a
// buffer the test overwrites after handing it on, as the reader does.
func TestBatchWeightChargesSlab(t *testing.T) {
	var sent []batch
	b := newBatcher(100, 1<<40, &pace{}, func(bt batch) bool { sent = append(sent, bt); return true })
	buf := make([]byte, 1000)
	add := func(i int, borrowed bool) {
		line := fmt.Appendf(nil, `{"i":%04d,"s":"%s"}`+"\n", i, strings.Repeat("z", 1000-18)) // 1000 bytes
		rec := jsonl.Record{Line: i + 1, Raw: line, Data: line[:len(line)-1], End: "\n"}
		if borrowed {
			copy(buf, line)
			rec.Raw, rec.Data = buf[:len(line)], buf[:len(line)-1]
		}
		b.add(job{unit: lint.Unit{File: "x", Records: []jsonl.Record{rec}}, borrowed: borrowed})
		if borrowed {
			copy(buf, strings.Repeat("#", len(buf))) // the reader reads on
		}
	}
	for i := range 300 {
		add(i, true)
	}
	for i := 300; i < 400; i++ {
		add(i, false)
	}
	b.flush()
	overhead := int64(100 * jobOverhead)
	want := []int64{
		overhead + 100*1000, // no chunk yet: each record copied on its own
		overhead + 125000,   // a chunk sized for what the last batch copied, and a quarter: counted whole
		overhead + 125000,   // a chunk of its own again
		overhead + 100*1000, // records that own their bytes: their size
	}
	var got []int64
	for _, bt := range sent {
		got = append(got, bt.weight)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("batch weights (-want +got):\n%s", diff)
	}
	i := 0
	for _, bt := range sent {
		for _, j := range bt.jobs {
			if j.borrowed {
				t.Fatalf("record %d still borrowed in a sent batch", i+1)
			}
			if got := string(j.unit.Records[0].Raw[:10]); got != fmt.Sprintf(`{"i":%04d,`, i) {
				t.Fatalf("record %d holds %q after its buffer was overwritten", i+1, got)
			}
			i++
		}
	}
}

// TestBatchNotHeldOnAStream: on a stream that pauses between records (a
// pipe, a terminal), each record is checked and emitted before the next one
// comes, however the jobs are batched: a batch is handed on when the reader
// would wait, not held back until more input fills it.
func TestBatchNotHeldOnAStream(t *testing.T) {
	for _, size := range []int{0, 64} {
		pr, pw := io.Pipe()
		emitted := make(chan int, 16)
		go func() {
			defer pw.Close()
			for i := range 5 {
				fmt.Fprintf(pw, `{"id":"c%d","messages":[{"role":"assistant","content":"a"}]}`+"\n\n", i)
				select {
				case <-emitted:
				case <-time.After(5 * time.Second):
					t.Errorf("batch %d: record %d not emitted before the next was written", size, i+1)
					return
				}
			}
		}()
		r := &Runner{Opts: Options{Workers: 2, Batch: size}}
		Each(context.Background(), r, []Input{{Name: "<stdin>", Reader: pr}},
			func() func(Job) bool { return func(j Job) bool { return j.End } },
			func(end bool) {
				if !end {
					emitted <- 1
				}
			})
	}
}

// TestMayWait: mayWait tells streams from regular files and bytes in memory.
func TestMayWait(t *testing.T) {
	f, err := os.Open("batch_test.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, c := range []struct {
		name string
		r    io.Reader
		want bool
	}{
		{"regular file", f, false},
		{"pipe", pr, true},
		{"strings", strings.NewReader("x"), false},
		{"io.Pipe", &io.PipeReader{}, true},
	} {
		if got := mayWait(c.r); got != c.want {
			t.Errorf("mayWait(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSessionGoesAlone: a whole session is batched with nothing but its
// file's End job; records of per-record formats around it are batched
// together.
func TestSessionGoesAlone(t *testing.T) {
	var got [][]string
	b := newBatcher(64, 1<<40, &pace{}, func(bt batch) bool {
		var names []string
		for _, j := range bt.jobs {
			names = append(names, j.unit.File+map[bool]string{true: " end"}[j.end])
		}
		got = append(got, names)
		return true
	})
	rec := []jsonl.Record{{Line: 1, Data: []byte(`{}`), Raw: []byte("{}\n")}}
	chat := func(f string) job { return job{unit: lint.Unit{File: f, Format: document.Chat, Records: rec}} }
	session := func(f string) job {
		return job{unit: lint.Unit{File: f, Format: document.PiSession, Records: append(rec, rec...)}}
	}
	end := func(f string) job { return job{unit: lint.Unit{File: f}, end: true} }
	for _, j := range []job{
		chat("a"), chat("a"), end("a"),
		session("s1"), end("s1"),
		session("s2"), end("s2"),
		chat("b"), end("b"),
		session("s3"), end("s3"),
	} {
		b.add(j)
	}
	b.flush()
	want := [][]string{{"a", "a", "a end"}, {"s1", "s1 end"}, {"s2", "s2 end"}, {"b", "b end"}, {"s3", "s3 end"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
}
