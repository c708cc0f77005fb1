package document

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// BenchmarkFields measures normalizing chat records whole and under the
// Fields of scripts/bench-pack (messages[].role, tool_call_id,
// tool_calls[].id), scripts/bench-floor (format) and the built-in check
// packs (every member): records are decoded
// before the timer starts.
func BenchmarkFields(b *testing.B) {
	chat, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var recs []ast.Object
	size := 0
	for _, l := range chat {
		v, err := astjson.Decode(l)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, v.(ast.Object))
		size += len(l) + 1
	}
	only := func(paths ...string) *Fields {
		return NewFields(func(path ...string) bool {
			q := strings.Join(path, ".")
			for _, p := range paths {
				if p == q || strings.HasPrefix(p, q+".") {
					return true
				}
			}
			return false
		})
	}
	for _, c := range []struct {
		name string
		f    *Fields
	}{
		{"whole", nil},
		// The built-in check packs read every member, through a Fields
		// that is not All (the pruned builder's path).
		{"every-member", NewFields(func(...string) bool { return true })},
		{"bench-pack", only("format", "messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id")},
		{"floor", only("format", "id", "line", "profile")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				bl := NewBuilder(Chat, "bench.jsonl", Options{Fields: c.f, SkipLookup: true})
				for i, r := range recs {
					bl.Add(i+1, r)
				}
			}
		})
	}
}
