package astjson

import (
	"runtime"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// messageViews is the projection chat documents decode with when rules read
// the raw record: every member whole, the messages, their tool calls and
// the calls' functions as views.
var messageViews = &Projection{Object: true, KeepOthers: true, Members: map[string]*Projection{
	"messages": {Elem: &Projection{Object: true, KeepOthers: true, View: true, Members: map[string]*Projection{
		"tool_calls": {Elem: &Projection{Object: true, KeepOthers: true, View: true, Members: map[string]*Projection{
			"function": {Object: true, KeepOthers: true, View: true},
		}}},
	}}},
}}

// anyView reports whether v holds a view anywhere.
func anyView(v ast.Value) bool {
	switch x := v.(type) {
	case *ObjectView:
		return true
	case *ast.Array:
		for i := 0; i < x.Len(); i++ {
			if anyView(x.Elem(i).Value) {
				return true
			}
		}
	case ast.Object:
		return x.Until(func(_, e *ast.Term) bool { return anyView(e.Value) })
	}
	return false
}

// TestObjectViewSameAsObject: a record decoded with views is, member for
// member, the record Decode builds: the views answer Get, Len, Hash and
// IsGround as the objects do without building them, and their built
// objects (and Plain) equal Decode's. Every message here holds a string too
// long to intern, so that it is not a shared object (shared.go), which
// stays an OPA object; an empty object is one too.
func TestObjectViewSameAsObject(t *testing.T) {
	for _, in := range []string{
		`{"messages":[]}`,
		`{"messages":[{}]}`,
		`{"messages":[{"role":"user","content":"hi there, a question longer than thirty-two bytes"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_0123456789abcdefghijklmnopq","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"call_0123456789abcdefghijklmnopq","content":"1"}],"tools":[]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"x"}],"n":1.5,"b":true,"z":null,"id":"msg_0123456789abcdefghijklmnopqrstuv"}]}`,
		`{"messages":[{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":"a string longer than thirty-two bytes"}]}`, // more members than a view holds inline
		`{"messages":[{"role":"user","role":"assistant","content":"dup, in a string longer than thirty-two bytes"}]}`,        // a repeated key keeps the last value
		`{"messages":["not an object", 3, null, {"role":"user","content":"a string longer than thirty-two bytes"}]}`,
		`{"id":"x","messages":{"role":"user"}}`, // not a list: no views
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"call_0123456789abcdefghijklmnopq","function":{"name":"f","arguments":"{\"path\": \"/a/path/longer/than/thirty-two/bytes\"}"}},{"id":"call_1123456789abcdefghijklmnopq","type":"function","function":"not an object"},"not a call"]}]}`,
	} {
		want, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, err := DecodeProjected([]byte(in), messageViews)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		wantMsgs := want.(ast.Object).Get(ast.StringTerm("messages"))
		gotMsgs := got.(ast.Object).Get(ast.StringTerm("messages"))
		if got.Hash() != want.Hash() {
			t.Errorf("%s: record hash %d, want %d", in, got.Hash(), want.Hash())
		}
		arr, ok := gotMsgs.Value.(*ast.Array)
		if !ok {
			if ast.Compare(gotMsgs.Value, wantMsgs.Value) != 0 {
				t.Errorf("%s: messages %v, want %v", in, gotMsgs, wantMsgs)
			}
			continue
		}
		views := 0
		for i := 0; i < arr.Len(); i++ {
			w := wantMsgs.Value.(*ast.Array).Elem(i).Value
			v, isView := arr.Elem(i).Value.(*ObjectView)
			if !isView {
				if o, isObj := w.(ast.Object); isObj && o.Len() > 0 {
					t.Errorf("%s: message %d is %T, want a view", in, i, arr.Elem(i).Value)
				}
				continue
			}
			views++
			o := w.(ast.Object)
			if v.Len() != o.Len() || v.Hash() != o.Hash() || v.IsGround() != o.IsGround() {
				t.Errorf("%s: message %d: view len %d hash %d ground %v, object %d %d %v", in, i, v.Len(), v.Hash(), v.IsGround(), o.Len(), o.Hash(), o.IsGround())
			}
			for _, k := range append(o.Keys(), ast.StringTerm("absent"), ast.IntNumberTerm(1)) {
				g, w := v.Get(k), o.Get(k)
				if (g == nil) != (w == nil) || (g != nil && ast.Compare(g.Value, w.Value) != 0) {
					t.Errorf("%s: message %d: Get(%v) = %v, want %v", in, i, k, g, w)
				}
			}
			if v.object() != nil {
				t.Errorf("%s: message %d: Len, Hash, IsGround and Get built the object", in, i)
			}
			if anyView(v.Materialize()) {
				t.Errorf("%s: message %d: the built object holds a view: %v", in, i, v.Materialize())
			}
			if ast.Compare(PlainView(v), o) != 0 || v.Compare(o) != 0 || ast.Compare(o, v.Materialize()) != 0 {
				t.Errorf("%s: message %d: built object %v, want %v", in, i, v.Materialize(), o)
			}
		}
		if plain := PlainArray(arr); views > 0 && (plain == arr || ast.Compare(plain, wantMsgs.Value) != 0) {
			t.Errorf("%s: PlainArray = %v, want %v", in, plain, wantMsgs)
		}
	}
}

// TestObjectViewInsert: once a member is inserted the built object answers.
func TestObjectViewInsert(t *testing.T) {
	got, err := DecodeProjected([]byte(`{"messages":[{"role":"user","content":"a string longer than thirty-two bytes"}]}`), messageViews)
	if err != nil {
		t.Fatal(err)
	}
	v := got.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array).Elem(0).Value.(*ObjectView)
	v.Insert(ast.StringTerm("name"), ast.StringTerm("bob"))
	v.Insert(ast.StringTerm("role"), ast.StringTerm("tool"))
	want := ast.MustParseTerm(`{"role":"tool","content":"a string longer than thirty-two bytes","name":"bob"}`).Value.(ast.Object)
	if v.Len() != 3 || v.Hash() != want.Hash() || ast.Compare(v.Get(ast.StringTerm("role")).Value, ast.String("tool")) != 0 || v.Compare(want) != 0 {
		t.Errorf("after Insert: len %d, hash %d (want %d), %v", v.Len(), v.Hash(), want.Hash(), v)
	}
}

// TestObjectViewForeachKey: ForeachKey gives the keys Foreach gives, as a
// set, without building the object; after an Insert, the built object's.
func TestObjectViewForeachKey(t *testing.T) {
	v := NewObjectView(
		[2]*ast.Term{ast.StringTerm("role"), ast.StringTerm("user")},
		[2]*ast.Term{ast.StringTerm("content"), ast.StringTerm("hi")},
		[2]*ast.Term{ast.StringTerm("name"), ast.StringTerm("ana")},
	)
	keys := func() *ast.Term {
		var ks []*ast.Term
		v.ForeachKey(func(k *ast.Term) { ks = append(ks, k) })
		return ast.SetTerm(ks...)
	}
	want := ast.SetTerm(ast.StringTerm("content"), ast.StringTerm("name"), ast.StringTerm("role"))
	if got := keys(); !got.Equal(want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	if v.Built() {
		t.Error("ForeachKey built the object")
	}
	v.Insert(ast.StringTerm("weight"), ast.IntNumberTerm(1))
	want = ast.SetTerm(ast.StringTerm("content"), ast.StringTerm("name"), ast.StringTerm("role"), ast.StringTerm("weight"))
	if got := keys(); !got.Equal(want) {
		t.Errorf("after Insert: keys %v, want %v", got, want)
	}
}

// TestObjectViewSized: a view of up to 16 members is one allocation of
// about its size (more take a second, for the members), and answers for
// each member: a view with room for five members took 160 bytes for two
// members and a second allocation for a Codex entry's six or a Claude Code
// entry's eleven (352 bytes in all).
func TestObjectViewSized(t *testing.T) {
	for n := 0; n <= 20; n++ {
		kvs := make([][2]*ast.Term, n)
		for i := range kvs {
			kvs[i] = [2]*ast.Term{ast.StringTerm(string(rune('a' + i))), ast.IntNumberTerm(i)}
		}
		var v *ObjectView
		allocs := testing.AllocsPerRun(10, func() { v = NewObjectView(kvs...) })
		if want := 1.0; allocs != want && !(n > 16 && allocs == 2) {
			t.Errorf("%d members: %v allocations, want %v", n, allocs, want)
		}
		if v.Len() != n || n > 0 && v.Get(kvs[n-1][0]) != kvs[n-1][1] {
			t.Errorf("%d members: view %v", n, v)
		}
		// The header (48 bytes) and 16 bytes a member, to the allocator's
		// next size class (16 or 32 bytes on): no room to spare but its rounding.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const count = 1000
		keep := make([]*ObjectView, count)
		for i := range keep {
			keep[i] = NewObjectView(kvs...)
		}
		runtime.ReadMemStats(&after)
		per := float64(after.TotalAlloc-before.TotalAlloc) / count
		if limit := float64(48 + 16*n + 32); n <= 16 && per > limit {
			t.Errorf("%d members: %.0f bytes a view, want at most %.0f", n, per, limit)
		}
		runtime.KeepAlive(keep)
		for i, kv := range kvs {
			if got := v.Get(kv[0]); got != kv[1] {
				t.Errorf("a view of %d members: member %d is %v, want %v", n, i, got, kv[1])
			}
		}
		if v.Materialize().Compare(ast.NewObject(kvs...)) != 0 {
			t.Errorf("a view of %d members builds %v", n, v.Materialize())
		}
	}
}

// TestObjectViewBuiltOnce: readers building a view at once all get the
// one object that was stored (a view may be shared, as the repeated
// tools arrays are, by the workers).
func TestObjectViewBuiltOnce(t *testing.T) {
	v := NewObjectView([2]*ast.Term{ast.StringTerm("a"), ast.IntNumberTerm(1)}, [2]*ast.Term{ast.StringTerm("b"), ast.StringTerm("x")})
	const n = 8
	got := make([]ast.Object, n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = v.Materialize() })
	}
	wg.Wait()
	for i, o := range got {
		if o != got[0] {
			t.Fatalf("reader %d got an object of its own", i)
		}
	}
	if !v.Built() || v.Materialize() != got[0] {
		t.Fatal("the view does not keep the object it built")
	}
}

// TestKeyIsTheDecodersKey: a key from Key is the term the decoder gives
// that key, so a view's Get finds it by pointer; a key too long to intern
// is a term of its own and still finds its member.
func TestKeyIsTheDecodersKey(t *testing.T) {
	short, long := Key("zz_key_test_member"), Key("a member name longer than thirty-two bytes")
	v, err := Decode([]byte(`{"zz_key_test_member": 1, "a member name longer than thirty-two bytes": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	var keys []*ast.Term
	v.(ast.Object).Foreach(func(k, _ *ast.Term) { keys = append(keys, k) })
	found := false
	for _, k := range keys {
		found = found || k == short
	}
	if !found {
		t.Errorf("the decoded keys %v do not hold Key's term %p", keys, short)
	}
	if got := v.(ast.Object).Get(long); got == nil || got.String() != "2" {
		t.Errorf("Get(long key) = %v, want 2", got)
	}
	if Key("zz_key_test_member") != short {
		t.Errorf("Key gives two terms for one key")
	}
}

// TestObjectViewHashFromInternCache: a view's hash, which the decoder sums
// from the intern cache's hashes of its keys and short values, is its
// object's, on every decode of a record: the first, where the strings are
// not interned yet, and the later ones, where they are; with a key given
// twice (the first value's hash must not count), a key too long to
// intern, numbers, and views inside views.
func TestObjectViewHashFromInternCache(t *testing.T) {
	long := `"a string longer than thirty-two bytes, never interned"`
	in := `{"messages":[` +
		`{"role":"user","content":` + long + `,"name":"n1","n":12345,"f":1.5,"b":false,"z":null},` +
		`{"role":"user","role":"assistant","content":` + long + `,"stop_reason":"end_turn"},` +
		`{"role":"tool","a_member_name_longer_than_thirty_two_bytes":"x","content":` + long + `},` +
		`{"role":"assistant","content":` + long + `,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + long + `}}]}` +
		`]}`
	want, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	wantMsgs := want.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array)
	for round := range 3 {
		got, err := DecodeProjected([]byte(in), messageViews)
		if err != nil {
			t.Fatal(err)
		}
		arr := got.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array)
		for i := 0; i < arr.Len(); i++ {
			v, ok := arr.Elem(i).Value.(*ObjectView)
			if !ok {
				t.Fatalf("round %d: message %d is %T, want a view", round, i, arr.Elem(i).Value)
			}
			o := wantMsgs.Elem(i).Value.(ast.Object)
			if v.Hash() != o.Hash() {
				t.Errorf("round %d: message %d: view hash %d, object hash %d", round, i, v.Hash(), o.Hash())
			}
			if calls := v.Get(ast.StringTerm("tool_calls")); calls != nil {
				call := calls.Value.(*ast.Array).Elem(0).Value
				wantCall := o.Get(ast.StringTerm("tool_calls")).Value.(*ast.Array).Elem(0).Value
				if call.Hash() != wantCall.Hash() {
					t.Errorf("round %d: call hash %d, want %d", round, call.Hash(), wantCall.Hash())
				}
			}
		}
		if got.Hash() != want.Hash() {
			t.Errorf("round %d: record hash %d, want %d", round, got.Hash(), want.Hash())
		}
	}
}
