package pipeline

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

var (
	fuzzEngineOnce sync.Once
	fuzzEngine     *policy.Engine
	fuzzEngineErr  error
)

func builtinEngine(t testing.TB) *policy.Engine {
	fuzzEngineOnce.Do(func() {
		packs, err := builtin.Packs()
		if err != nil {
			fuzzEngineErr = err
			return
		}
		fuzzEngine, fuzzEngineErr = policy.Compile(context.Background(), packs, policy.Options{})
	})
	if fuzzEngineErr != nil {
		t.Fatal(fuzzEngineErr)
	}
	return fuzzEngine
}

// readAndCheck is the pipeline without Beam: ReadFn's reading, then every
// unit through the linter, as CheckFn does.
func readAndCheck(t testing.TB, name string, data []byte) ([]string, int) {
	var units []Unit
	var lines []string
	n := 0
	out := &output{finding: func(s string) { lines = append(lines, s) }, tally: func(t Tally) { n += t.Records }}
	fn := &ReadFn{}
	if err := fn.read(context.Background(), name, bytes.NewReader(data), func(u Unit) { units = append(units, u) }, out, nil); err != nil {
		t.Fatalf("read: %v", err)
	}
	l := lint.New(builtinEngine(t), Config{}.documentOptions())
	for _, u := range units {
		for _, f := range l.Check(context.Background(), u.lint()) {
			out.emit(f)
		}
	}
	slices.Sort(lines)
	return lines, n
}

// runnerFindings is what `chatlint check` finds in the same bytes.
func runnerFindings(t testing.TB, name string, data []byte) ([]string, int) {
	r := &runner.Runner{Engine: builtinEngine(t), Opts: runner.Options{Workers: 1}}
	var lines []string
	sum, errs := r.Run(context.Background(), []runner.Input{{Name: name, Reader: bytes.NewReader(data)}}, func(f finding.Finding) {
		lines = append(lines, marshal(f))
	})
	if len(errs) > 0 {
		t.Fatalf("runner: %v", errs)
	}
	slices.Sort(lines)
	return lines, sum.Records
}

// FuzzReadMatchesRunner feeds the same bytes to the pipeline's reader and
// linter and to engine/runner: the findings and record counts must agree,
// whatever the bytes, for JSON Lines and .json files alike.
func FuzzReadMatchesRunner(f *testing.F) {
	seeds := []string{
		chat + "\n" + chat + "\n",
		"not json\n" + chat + "\n[1]\n",
		"\xEF\xBB\xBF" + chat + "\r\n\r\n{\r\n",
		`{"type":"session","id":"s"}` + "\n{\n" + `{"type":"message","message":{"role":"user","content":"x"}}` + "\n",
		`{"timestamp":"2024-05-01T10:00:00Z","session_id":"s","request":{"messages":[]},"response":{}}` + "\n",
		"[\n" + chat + ",\n" + chat + "\n]\n",
		"[\n" + chat + ",\n{\"messages\": [}\n",
		"{\"a\":1}\n{\"b\":2}\n",
		"",
		"\n\n   \n",
	}
	for _, s := range seeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data string, asJSON bool) {
		name := "f.jsonl"
		if asJSON {
			name = "f.json"
		}
		got, gotN := readAndCheck(t, name, []byte(data))
		want, wantN := runnerFindings(t, name, []byte(data))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("findings (-runner +pipeline):\n%s\ninput: %q", diff, shorten(data))
		}
		if gotN != wantN {
			t.Errorf("records: pipeline %d, runner %d", gotN, wantN)
		}
	})
}

func shorten(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// A fixing job refuses a .json document a worker is handed (the launcher
// refuses those it matches), before reading it: its records could span
// lines of the output.
func TestReadFnFixRefusesJSONDocument(t *testing.T) {
	file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: filepath.Join(t.TempDir(), "d.json")}}
	none := func(string) {}
	err := (&ReadFn{Fix: true}).ProcessElement(context.Background(), file, func(Unit) {}, none, func(Tally) {}, func(string, Fact) {})
	if !errors.Is(err, ErrFixJSON) {
		t.Errorf("error %v, want %v", err, ErrFixJSON)
	}
}
