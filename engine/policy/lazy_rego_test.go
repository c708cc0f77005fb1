package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// With Options.LazyRego the built-in packs' Rego is compiled on the first
// document a Rego rule applies to, not by Compile: a chat record under the
// default profile leaves it uncompiled, one under the openai profile
// compiles it, and both get the hits an engine compiled at once gives.
func TestLazyRegoSameHits(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	eager, err := Compile(ctx, packs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := Compile(ctx, packs, Options{LazyRego: true})
	if err != nil {
		t.Fatal(err)
	}
	if eager.rego == nil || len(lazy.compiledModules()) > 0 || !lazy.hasRego {
		t.Fatalf("after Compile: eager program %v, lazy modules %v (hasRego %v); want only the eager one compiled", eager.rego != nil, lazy.compiledModules(), lazy.hasRego)
	}
	record := `{"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{not json"}}]}, {"role": "tool", "tool_call_id": "c9", "content": "{}"}], "weight": 2}`
	doc := func(profile string) *document.Document {
		v, err := astjson.Decode([]byte(record))
		if err != nil {
			t.Fatal(err)
		}
		return document.NewBuilder(document.Chat, "data.jsonl", document.Options{Profile: profile}).Add(1, v.(ast.Object))
	}
	for _, profile := range []string{"", "openai"} {
		want, err := eager.Evaluate(ctx, doc(profile))
		if err != nil {
			t.Fatal(err)
		}
		got, err := lazy.Evaluate(ctx, doc(profile))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("profile %q: no hits to compare", profile)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("profile %q: hits differ (-eager +lazy):\n%s", profile, diff)
		}
		if compiled := len(lazy.compiledModules()) > 0; compiled != (profile == "openai") {
			t.Errorf("profile %q: the lazy engine's Rego compiled %v, want %v", profile, compiled, profile == "openai")
		}
	}
	if diff := cmp.Diff(eager.Fields(), lazy.Fields(), cmp.AllowUnexported(document.Fields{}), cmpopts.IgnoreUnexported(astjson.Projection{})); diff != "" {
		t.Errorf("Fields differ (-eager +lazy):\n%s", diff)
	}
}

// A pack of the user's is compiled by Compile even with LazyRego: its
// errors stop the run before any record is read.
func TestLazyRegoCompilesUserPacks(t *testing.T) {
	packs := append(fieldPackSets(t)["built-in check packs"], packOf(t, map[string]string{
		"bad.rego": "package chatlint.team\n\ndeny contains f if {\n\tf := nope(1)\n}\n",
	}))
	_, err := Compile(context.Background(), packs, Options{LazyRego: true})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a compile error", err)
	}
}

// Workers that reach the first Rego document together compile it once and
// all get the eager engine's hits (run with -race).
func TestLazyRegoConcurrentFirstUse(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	forgetCompiled() // parts of an earlier test would have the program compiled already
	lazy, err := Compile(ctx, packs, Options{LazyRego: true})
	if err != nil {
		t.Fatal(err)
	}
	eager, err := Compile(ctx, packs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	record := `{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "weight": 3}]}`
	doc := func() *document.Document {
		v, err := astjson.Decode([]byte(record))
		if err != nil {
			t.Error(err)
			return nil
		}
		return document.NewBuilder(document.Chat, "data.jsonl", document.Options{Profile: "openai"}).Add(1, v.(ast.Object))
	}
	want, err := eager.Evaluate(ctx, doc())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no hits to compare")
	}
	got := make([][]Hit, 4)
	done := make(chan int)
	for w := range got {
		go func() {
			defer func() { done <- w }()
			ev := lazy.NewEvaluator()
			h, err := ev.Evaluate(ctx, doc())
			if err != nil {
				t.Error(err)
			}
			got[w] = h
		}()
	}
	for range got {
		<-done
	}
	for w := range got {
		if diff := cmp.Diff(want, got[w]); diff != "" {
			t.Errorf("worker %d: hits differ (-eager +lazy):\n%s", w, diff)
		}
	}
}
