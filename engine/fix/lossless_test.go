package fix

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

// TestRunDropsLinesThatAreNoRecord: a line that is JSON but not an object
// goes to the rejects as it was (rule jsonl-syntax, op drop_line), in a
// chat file and inside a session; a line that is not JSON stays.
func TestRunDropsLinesThatAreNoRecord(t *testing.T) {
	type got struct {
		Records []string
		Rejects []string
		Invalid []int
		ID      string
		Change  bool
	}
	header := `{"type":"session","id":"s"}`
	entry := `{"type":"message","message":{"role":"user","content":"q"}}`
	cases := []struct {
		name   string
		format document.Format
		in     []string
		want   got
	}{
		{"an array line alone", document.Chat, []string{`[1, 2]`},
			got{Rejects: []string{`1 jsonl-syntax drop_line a record must be a JSON object, not an array: [1, 2]`}, ID: "t.jsonl:1", Change: true}},
		{"a string, a number, null, a boolean", document.Chat, []string{` "x" `, `42`, `null`, `true`},
			got{Rejects: []string{
				`1 jsonl-syntax drop_line a record must be a JSON object, not a string: "x"`,
				`2 jsonl-syntax drop_line a record must be a JSON object, not a number: 42`,
				`3 jsonl-syntax drop_line a record must be a JSON object, not null: null`,
				`4 jsonl-syntax drop_line a record must be a JSON object, not a boolean: true`,
			}, ID: "t.jsonl:1", Change: true}},
		{"an object stays", document.Chat, []string{`{"messages":[]}`},
			got{Records: []string{`1 {"messages":[]}`}, ID: "t.jsonl:1"}},
		{"a line that is not JSON stays", document.PiSession, []string{header, `nope`, entry},
			got{Records: []string{"1 " + header, "2 nope", "3 " + entry}, Invalid: []int{2}, ID: "s"}},
		{"inside a session", document.PiSession, []string{header, `[1]`, entry},
			got{Records: []string{"1 " + header, "3 " + entry}, Rejects: []string{`2 jsonl-syntax drop_line a record must be a JSON object, not an array: [1]`}, ID: "s", Change: true}},
	}
	cleanup, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), []*policy.Pack{packNamed(t, cleanup, "openai-tools")}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := []*policy.Evaluator{eng.NewEvaluator()}
			out, err := Run(context.Background(), evs, records(c.in...), Options{Format: c.format, File: "t.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			g := got{Invalid: out.Invalid, ID: out.ID, Change: out.AnyChange()}
			for _, r := range out.Records {
				g.Records = append(g.Records, strings.Join([]string{strconv.Itoa(r.Line), string(r.Data)}, " "))
			}
			for _, r := range out.Rejects {
				g.Rejects = append(g.Rejects, strings.Join([]string{strconv.Itoa(r.Line), r.Rule, r.Op, r.Reason + ":", string(r.Data)}, " "))
			}
			if diff := cmp.Diff(c.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFixLosesNothing is the property fix promises: over every case of
// fixtures/fix, read as the command reads it and fixed with the default
// pack of its format and with both packs as stages, every source line is
// either written (changed or not) or in the rejects as it was, never both,
// never neither; and every line written comes from the input or from an
// action that inserted it. So the output's records plus the rejects' lines
// are the input's records.
func TestFixLosesNothing(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(benchdata.Root(), "fixtures/fix/*/input.jsonl"))
	if len(files) < 30 {
		t.Fatalf("only %d fixtures", len(files))
	}
	cleanup, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	engine := func(names ...string) []*policy.Evaluator {
		var evs []*policy.Evaluator
		for _, n := range names {
			e, err := policy.Compile(context.Background(), []*policy.Pack{packNamed(t, cleanup, n)}, policy.Options{})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, e.NewEvaluator())
		}
		return evs
	}
	openai, transcript, both := engine("openai-tools"), engine("transcript"), engine("openai-tools", "transcript")
	dropped, kept := 0, 0
	for _, f := range files {
		var units []runner.Job
		if _, err := runner.ReadInput(context.Background(), runner.Input{Name: f, Path: f}, runner.Options{}, func(j runner.Job) {
			if len(j.Records) > 0 {
				units = append(units, j)
			}
		}); err != nil {
			t.Fatal(err)
		}
		for _, u := range units {
			def := openai
			if u.Format == document.PiSession {
				def = transcript
			}
			for name, evs := range map[string][]*policy.Evaluator{"default": def, "both": both, "none": nil} {
				if u.Format == "" {
					evs = nil
				}
				out, err := Run(context.Background(), evs, u.Records, Options{Format: u.Format, File: f})
				var ke *KeptError
				var pe *PassError
				var ce *ConflictError
				switch {
				case errors.As(err, &ke) || errors.As(err, &pe) || errors.As(err, &ce):
					kept++
					continue // the command writes the records as they were
				case err != nil:
					// A pack of the fixture's own that fails is not this test's concern.
					continue
				}
				where := filepath.Base(filepath.Dir(f)) + " (" + name + ")"
				in := map[int][]byte{}
				for _, r := range u.Records {
					in[r.Line] = bytes.TrimSpace(r.Data)
				}
				written := map[int]int{}
				inserted := 0
				for _, r := range out.Records {
					if r.Line == 0 {
						inserted++ // by an action
						continue
					}
					if _, ok := in[r.Line]; !ok {
						t.Errorf("%s: line %d written, but it is no line of the input", where, r.Line)
					}
					written[r.Line]++
				}
				rejected := map[int]int{}
				for _, r := range out.Rejects {
					if src, ok := in[r.Line]; ok && bytes.Equal(bytes.TrimSpace(r.Data), src) {
						rejected[r.Line]++ // the whole line, as it was
					}
				}
				whole := 0
				for _, r := range u.Records {
					w, rj := written[r.Line], rejected[r.Line]
					if w+rj != 1 {
						t.Errorf("%s: line %d is written %d times and in the rejects %d times:\n%s", where, r.Line, w, rj, r.Data)
					}
					whole += rj
				}
				dropped += whole
				// Counted: the records in are the records out (less those an
				// action inserted) and the lines rejected whole.
				if got := len(out.Records) - inserted + whole; got != len(u.Records) {
					t.Errorf("%s: %d records in, %d out (%d inserted) and %d rejected whole", where, len(u.Records), len(out.Records), inserted, whole)
				}
			}
		}
	}
	if dropped == 0 || kept == 0 {
		t.Errorf("the fixtures drop %d lines whole and keep %d records as they were: they no longer test this", dropped, kept)
	}
}
