package document

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// proxyFieldSets are the Fields a proxy-log session is built under in the
// tests below: every top-level member alone, the bench packs' and a few
// mixes; each leaves out something.
func proxyFieldSets() map[string]*Fields {
	sets := map[string]*Fields{
		"the floor":           fieldsOf("format"),
		"the bench pack":      fieldsOf("messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id"),
		"raw and entries":     fieldsOf("raw", "entries"),
		"tools and call ids":  fieldsOf("tools", "messages.*.tool_calls.*.id"),
		"lookup and line":     fieldsOf("lookup", "line"),
		"mode, id and file":   fieldsOf("mode", "id", "file"),
		"messages whole, raw": fieldsOf("messages", "raw"),
	}
	for _, m := range []string{"messages", "tools", "entries", "raw", "mode", "lookup", "file", "line", "id", "profile"} {
		sets[m] = fieldsOf(m)
	}
	return sets
}

// checkPruned compares a session built under f with the same session built
// whole: every member the pruned document holds is the whole one's (the
// messages member by member, as messages are pruned inside too), and Go
// code reading it (goValue, Locate) sees the whole document.
func checkPruned(t *testing.T, name string, f *Fields, whole, pruned *Document) {
	t.Helper()
	if pruned.fields.All() {
		t.Fatalf("%s: the document was not pruned", name)
	}
	w := whole.Value
	pruned.Value.Foreach(func(k, v *ast.Term) {
		wv := w.Get(k)
		if wv == nil {
			t.Errorf("%s: member %v is not in the whole document", name, k)
			return
		}
		if !k.Equal(KeyMessages) {
			if !v.Equal(wv) {
				t.Errorf("%s: member %v differs from the whole document's:\n pruned %v\n whole  %v", name, k, v, wv)
			}
			return
		}
		pm, wm := v.Value.(*ast.Array), wv.Value.(*ast.Array)
		if pm.Len() != wm.Len() {
			t.Fatalf("%s: %d messages, whole %d", name, pm.Len(), wm.Len())
		}
		for i := 0; i < pm.Len(); i++ {
			wo := wm.Elem(i).Value.(ast.Object)
			pm.Elem(i).Value.(ast.Object).Foreach(func(k, v *ast.Term) {
				if k.Equal(KeyToolCalls) {
					return // pruned inside too: the chat tests cover calls
				}
				if wv := wo.Get(k); wv == nil || !v.Equal(wv) {
					t.Errorf("%s: message %d member %v = %v, whole %v", name, i, k, v, wv)
				}
			})
		}
	})
	if got := pruned.goValue(); got.Compare(w) != 0 {
		t.Errorf("%s: the document Go code reads is not the whole one", name)
	}
	for _, target := range []Target{"/tools/0", "/tools/1", "/entries/0", "/entries/2", "/messages/0", "/messages/3"} {
		wl, wp, wok := whole.Locate(target)
		pl, pp, pok := pruned.Locate(target)
		if wl != pl || wp != pp || wok != pok {
			t.Errorf("%s: Locate(%s) = %d, %q, %v; whole %d, %q, %v", name, target, pl, pp, pok, wl, wp, wok)
		}
	}
	if diff := cmp.Diff(whole.toolLines, pruned.toolLines); diff != "" {
		t.Errorf("%s: tool lines (-whole +pruned):\n%s", name, diff)
	}
}

// proxySession: tools repeated by every request, a new one on line 2, an
// unnamed one, a failed request and a shorter side request after the
// conversation.
var proxySession = []string{
	`{"session_id": "s1", "timestamp": "t1", "request": {"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "shell", "parameters": {"type": "object"}}}]}, "response": {"status": 200, "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "shell", "arguments": "{}"}}]}}]}}`,
	`{"session_id": "s1", "timestamp": "t2", "request": {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "shell", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "ok"}], "tools": [{"type": "function", "function": {"name": "shell", "parameters": {"type": "string"}}}, {"name": "read", "input_schema": {"type": "object"}}, {"type": "function"}]}, "response": {"status": 200, "choices": [{"message": {"role": "assistant", "content": "done"}}]}}`,
	`{"session_id": "s1", "request": {"model": "m"}, "response": {"status": 500, "error": "boom"}}`,
	`{"session_id": "s1", "timestamp": "t4", "request": {"messages": [{"role": "user", "content": "title?"}], "tools": [{"type": "function"}]}, "response": {"status": 200, "choices": [{"message": {"role": "assistant", "content": "A title"}}]}}`,
}

// TestProxyLogFieldsPrune: under Fields a proxy-log session holds the
// members the rules read, each as the whole document has it.
func TestProxyLogFieldsPrune(t *testing.T) {
	whole := one(t, ProxyLog, Options{}, proxySession...)
	if n := whole.Tools().Len(); n != 4 { // shell, read and two unnamed
		t.Fatalf("whole session has %d tools, want 4", n)
	}
	for name, f := range proxyFieldSets() {
		pruned := one(t, ProxyLog, Options{Fields: f}, proxySession...)
		checkPruned(t, name, f, whole, pruned)
	}
	floor := one(t, ProxyLog, Options{Fields: fieldsOf("format")}, proxySession...)
	if diff := cmp.Diff([]string{"format"}, keysOf(t, ast.NewTerm(floor.Value))); diff != "" {
		t.Errorf("floor members (-want +got):\n%s", diff)
	}
}

// TestProxyLogPrunedMatchesWhole is TestProxyLogFieldsPrune on every
// proxy-log file of the fixtures and of the shared sample data.
func TestProxyLogPrunedMatchesWhole(t *testing.T) {
	files := proxyLogFiles(t, "../../fixtures", "../../policies", "../../../shared/data")
	if len(files) < 10 {
		t.Fatalf("found %d proxy-log files", len(files))
	}
	for _, path := range files {
		var objs []ast.Object
		var lines []int
		for _, r := range readRecords(t, path) {
			v, err := astjson.Decode(r.Data)
			if o, ok := v.(ast.Object); err == nil && ok {
				objs, lines = append(objs, o), append(lines, r.Line)
			}
		}
		session := func(f *Fields) *Document {
			b := NewBuilder(ProxyLog, path, Options{Fields: f})
			for i, o := range objs {
				b.Add(lines[i], o)
			}
			return b.Finish()
		}
		whole := session(nil)
		if whole == nil {
			continue
		}
		for name, f := range proxyFieldSets() {
			checkPruned(t, path+", "+name, f, whole, session(f))
		}
	}
}

// proxyLogFiles are the record files under roots (those present) whose
// first JSON object is a proxy-log line.
func proxyLogFiles(t *testing.T, roots ...string) []string {
	var out []string
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				v, err := astjson.Decode(line)
				if o, ok := v.(ast.Object); err == nil && ok {
					if f, _ := Detect(o); f == ProxyLog {
						out = append(out, p)
					}
					break
				}
			}
			return nil
		})
	}
	return out
}

// TestProxyLogSharedTools: a tools list the decoder shares between
// requests (one term for a repeated value) gives the session the same
// tools as lists decoded apart: named tools once, an unnamed one per
// request.
func TestProxyLogSharedTools(t *testing.T) {
	named := `[{"type": "function", "function": {"name": "a"}}, {"name": "b"}]`
	cases := map[string]string{
		"named":         named,
		"with unnamed":  `[{"type": "function", "function": {"name": "a"}}, {"description": "no name"}]`,
		"named twice":   `[{"name": "a", "v": 1}, {"name": "a", "v": 2}]`,
		"not an object": `[{"name": "a"}, "b"]`,
	}
	for name, tools := range cases {
		t.Run(name, func(t *testing.T) {
			line := func(n int) string {
				msgs := strings.Repeat(`{"role": "user", "content": "u"},`, n) + `{"role": "user", "content": "u"}`
				return `{"session_id": "s", "request": {"messages": [` + msgs + `], "tools": ` + tools + `}}`
			}
			lines := []string{line(0), line(1), `{"session_id": "s", "request": {"messages": [], "tools": ` + named + `}}`, line(2)}
			apart := NewBuilder(ProxyLog, "f.jsonl", Options{})
			shared := NewBuilder(ProxyLog, "f.jsonl", Options{})
			var first *ast.Term
			for i, l := range lines {
				apart.Add(i+1, obj(t, l))
				rec := obj(t, l)
				req := rec.Get(keyRequest).Value.(ast.Object)
				if first == nil {
					first = req.Get(KeyTools)
				} else if i != 2 {
					req.Insert(KeyTools, first)
				}
				shared.Add(i+1, rec)
			}
			want, got := apart.Finish(), shared.Finish()
			if !got.Tools().Equal(want.Tools()) {
				t.Errorf("tools with a shared list:\n %v\nwant\n %v", got.Tools(), want.Tools())
			}
			if diff := cmp.Diff(want.toolLines, got.toolLines); diff != "" {
				t.Errorf("tool lines (-apart +shared):\n%s", diff)
			}
		})
	}
}
