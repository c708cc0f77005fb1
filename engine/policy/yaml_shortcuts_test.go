package policy_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestYAMLShortcutsEquivalent evaluates the built-in packs' YAML rules over
// the bench records, every fixture of the packs and the shared sample data,
// under every profile, with the evaluator's shortcuts (lazy pointers,
// hoisted document conditions, the walk's prefilter) and without them, and
// wants the same hits, messages, targets and pointers included. With the
// shortcuts, one evaluator checks a file's documents in turn.
func TestYAMLShortcutsEquivalent(t *testing.T) {
	e := yamlOnlyEngine(t)
	root := benchdata.Root()
	files := []string{filepath.Join(root, "fixtures/bench/chat.jsonl"), filepath.Join(root, "fixtures/bench/proxy-log.jsonl")}
	for _, dir := range []string{filepath.Join(root, "policies"), filepath.Join(root, "rules"), filepath.Join(root, "fixtures"), filepath.Join(root, "../shared/data")} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "fixtures/bench") {
				files = append(files, p)
			}
			return nil
		})
	}
	ctx := context.Background()
	docs, findings := 0, 0
	for _, f := range files {
		lines, err := benchdata.FileLines(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) > 400 {
			lines = lines[:400]
		}
		for _, profile := range []string{"", "export", "openai", "mistral", "together", "bedrock"} {
			// one evaluator for the file, as a worker has: what the
			// shortcuts keep per document (shared walks and partners)
			// must not leak into the next
			reused := e.NewEvaluator()
			for _, d := range buildDocs(lines, f, profile) {
				docs++
				policy.SetYAMLShortcuts(false)
				want, wantErr := e.NewEvaluator().Evaluate(ctx, d)
				policy.SetYAMLShortcuts(true)
				got, gotErr := reused.Evaluate(ctx, d)
				findings += len(want)
				if diff := cmp.Diff(want, got); diff != "" || (wantErr == nil) != (gotErr == nil) {
					t.Fatalf("%s (profile %q, line %d): hits (-without +with shortcuts):\n%s\nerrors %v, %v", f, profile, d.Line, diff, wantErr, gotErr)
				}
			}
		}
	}
	if docs < 1000 || findings < 100 {
		t.Fatalf("only %d documents and %d findings compared", docs, findings)
	}
	t.Logf("%d documents, %d findings compared", docs, findings)
}

// buildDocs builds the documents of a file's lines: each line's own, or a
// whole-file format's one.
func buildDocs(lines [][]byte, file, profile string) []*document.Document {
	var docs []*document.Document
	var b document.Builder
	for i, l := range lines {
		v, err := astjson.Decode(l)
		if err != nil {
			continue
		}
		rec, ok := v.(ast.Object)
		if !ok {
			continue
		}
		if b == nil {
			f, ok := document.Detect(rec)
			if !ok {
				f = document.Chat
			}
			b = document.NewBuilder(f, file, document.Options{Profile: profile})
		}
		if d := b.Add(i+1, rec); d != nil {
			docs = append(docs, d)
		}
	}
	if b != nil {
		if d := b.Finish(); d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

// yamlOnlyEngine compiles the built-in packs' YAML rules alone.
func yamlOnlyEngine(t *testing.T) *policy.Engine {
	t.Helper()
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	var yamlOnly []*policy.Pack
	for _, p := range packs {
		// A pack's gate (rego_when) says when its Rego runs, and the Rego
		// is left out here.
		var rules []policy.File
		for _, f := range p.YAML {
			if !bytes.Contains(f.Source, []byte("\nrego_when:")) {
				rules = append(rules, f)
			}
		}
		yamlOnly = append(yamlOnly, &policy.Pack{Name: p.Name, YAML: rules})
	}
	e, err := policy.Compile(context.Background(), yamlOnly, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestYAMLShortcutsBigGroups: a keyed join whose partners are one big
// group (a turn of 300 calls and 300 results sharing an id, or 300 results
// of one turn) is counted by the key's group once the walks have visited a
// few partners per element; the findings are the walk's.
func TestYAMLShortcutsBigGroups(t *testing.T) {
	e := yamlOnlyEngine(t)
	record := func(id func(int) string) []byte {
		var b bytes.Buffer
		b.WriteString(`{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[`)
		for i := range 300 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%q,"type":"function","function":{"name":"f%d","arguments":"{}"}}`, id(i), i%3)
		}
		b.WriteString(`]}`)
		for i := range 300 {
			fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":%q,"content":%q}`, id(i), []string{"ok", "", `{"error":"x"}`}[i%3])
		}
		b.WriteString(`,{"role":"assistant","content":"done"}]}`)
		return b.Bytes()
	}
	lines := [][]byte{
		record(func(int) string { return "same" }),
		record(func(i int) string { return fmt.Sprintf("call_%d", i) }),
		record(func(i int) string { return fmt.Sprintf("call_%d", i%7) }),
	}
	ctx := context.Background()
	for _, profile := range []string{"", "export"} {
		for _, d := range buildDocs(lines, "big.jsonl", profile) {
			policy.SetYAMLShortcuts(false)
			want, wantErr := e.NewEvaluator().Evaluate(ctx, d)
			policy.SetYAMLShortcuts(true)
			got, gotErr := e.NewEvaluator().Evaluate(ctx, d)
			if diff := cmp.Diff(want, got); diff != "" || (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("line %d (profile %q): hits (-without +with shortcuts):\n%s\nerrors %v, %v", d.Line, profile, diff, wantErr, gotErr)
			}
			if len(want) == 0 {
				t.Fatalf("line %d (profile %q): no findings to compare", d.Line, profile)
			}
		}
	}
}
