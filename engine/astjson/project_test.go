package astjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// projections are the projections the tests decode with: the corner cases
// of each field and one shaped like the chat adapter's.
var projections = map[string]*Projection{
	"whole":   nil,
	"nothing": {Object: true},
	"keep a":  {Object: true, Members: map[string]*Projection{"a": nil}},
	"a's elements keep x": {Object: true, Members: map[string]*Projection{
		"a": {Elem: &Projection{Object: true, Members: map[string]*Projection{"x": nil}}}}},
	"others whole, a stubbed": {Object: true, KeepOthers: true, Members: map[string]*Projection{"a": {Stub: true}}},
	"others whole but b":      {Object: true, KeepOthers: true, Omit: map[string]bool{"b": true}},
	"probe everything":        {Probe: true, Needles: []string{"<tool_call>", "é"}, Elem: &Projection{Probe: true, Needles: []string{"<tool_call>"}}},
	"chat": {Object: true, Members: map[string]*Projection{
		"id": nil,
		"messages": {Elem: &Projection{Object: true, KeepOthers: true, Members: map[string]*Projection{
			"content": {Probe: true, Needles: []string{"<tool_call>", "<tool_result"}},
			"tool_calls": {Elem: &Projection{Object: true, KeepOthers: true, Members: map[string]*Projection{
				"function": {Object: true, KeepOthers: true, Members: map[string]*Projection{"arguments": {Stub: true}}},
			}}},
		}}},
	}},
	"others stubbed, dense content": {Object: true, KeepOthers: true, Others: &Projection{Stub: true}, Members: map[string]*Projection{
		"role":    nil,
		"content": {Probe: true, Needles: []string{"<tool_call>"}, Dense: 1},
		"a":       {Dense: 2, Elem: &Projection{Object: true, Members: map[string]*Projection{"x": nil}}},
	}},
	"shape": shapeProjection,
}

// project is the reference for DecodeProjected: the whole value cut down by
// p after the fact.
func project(v ast.Value, p *Projection) ast.Value {
	if p == nil {
		return v
	}
	if _, null := v.(ast.Null); p.Stub && !null {
		return ast.Boolean(true)
	}
	switch x := v.(type) {
	case ast.Object:
		if !p.Object {
			return v
		}
		out := ast.NewObject()
		x.Foreach(func(k, e *ast.Term) {
			node, keep := p.Members[string(k.Value.(ast.String))]
			if !keep && p.KeepOthers && !p.Omit[string(k.Value.(ast.String))] {
				node, keep = p.Others, true
			}
			if keep {
				out.Insert(k, ast.NewTerm(project(e.Value, node)))
			}
		})
		return out
	case *ast.Array:
		if p.Dense > 0 && x.Len() > p.Dense && denseElems(x) {
			return x.Slice(0, p.Dense)
		}
		if p.Elem == nil {
			return v
		}
		elems := make([]*ast.Term, x.Len())
		for i := range elems {
			elems[i] = ast.NewTerm(project(x.Elem(i).Value, p.Elem))
		}
		return ast.NewArray(elems...)
	case ast.String:
		if !p.Probe || x == "" {
			return v
		}
		for _, n := range p.Needles {
			if strings.Contains(string(x), n) {
				return v
			}
		}
		return placeholder.Value
	}
	return v
}

// checkProjected fails t unless DecodeProjected(data, p) fails exactly as
// Decode does, or gives Decode's value as project cuts it down.
func checkProjected(t *testing.T, data []byte, p *Projection) {
	t.Helper()
	whole, wantErr := Decode(data)
	got, err := DecodeProjected(data, p)
	switch {
	case wantErr != nil || err != nil:
		if wantErr == nil || err == nil || err.Error() != wantErr.Error() || errorType(err) != errorType(wantErr) {
			t.Fatalf("DecodeProjected(%q) error %v, Decode error %v", truncate(data), err, wantErr)
		}
	default:
		checkSame(t, data, got, project(whole, p))
	}
}

// denseElems reports whether every element of a is a number, a boolean or
// null.
func denseElems(a *ast.Array) bool {
	dense := true
	a.Foreach(func(e *ast.Term) {
		switch e.Value.(type) {
		case ast.Number, ast.Boolean, ast.Null:
		default:
			dense = false
		}
	})
	return dense
}

func errorType(err error) string {
	var re *RangeError
	if errors.As(err, &re) {
		return "range"
	}
	return "syntax"
}

func TestDecodeProjected(t *testing.T) {
	inputs := append([]string(nil), validInputs...)
	for _, tc := range invalidInputs {
		inputs = append(inputs, tc.in)
	}
	inputs = append(inputs, chatRecord, manyKeys(40, true),
		`{"a":[{"x":1,"y":"long"},{"y":2}],"b":{"c":[1e999999]}}`, // a range error in a left-out member
		`{"b":[1,2,}],"a":1}`,                     // a syntax error in a left-out member
		`{"b":"\ud800\u00zz","a":1}`,              // a bad escape in a left-out string
		"{\"b\":\"\xff\",\"a\":1}",                // invalid UTF-8 in a left-out string
		`{"a":1,"a":{"x":2},"b":3,"a":[{"x":4}]}`, // a kept key repeated: the last value wins
		`{"messages":[{"role":"assistant","content":"<tool_call>{}</tool_call>","tool_calls":[{"function":{"arguments":"{}"}},{"function":{"arguments":null}}]},{"role":"tool","content":""}],"id":"x","tools":[{"big":"`+strings.Repeat("x", 300)+`"}]}`,
		strings.Repeat(`{"b":`, 10001)+"1"+strings.Repeat("}", 10001),  // too deep, inside a left-out member
		`{"a":[1,2,3,null,true],"content":[0,false,null],"x":[0,0,0]}`, // dense arrays
		`{"a":[1,2,3,{"x":1,"y":2}],"content":[0,0,"<tool_call>"]}`,    // not dense: after scalars, built whole again
		`{"a":[1,2,3,1e999999,{"x":1}],"b":1e999998}`,                  // a refused number read before the array is built again
		`{"a":[1,2,3,1e999999,4],"content":[1,2,}]}`,                   // a refused number in the part left out, a syntax error later
		`{"a":[1,2,3,tru]}`, // an error in the part left out
		`{"a":[1,2,3 4]}`,   // a missing comma
		`{"a":[1,2,[`+strings.Repeat("[", 10001)+`]]}`, // too deep after scalars
		`{"content":[`+strings.TrimSuffix(strings.Repeat("0,", 100), ",")+`],"role":"user","extra":[[0,0],{"y":[0,0,0]}]}`,
	)
	for name, p := range projections {
		t.Run(name, func(t *testing.T) {
			for _, in := range inputs {
				checkProjected(t, []byte(in), p)
			}
		})
	}
}

// TestDecodeProjectedLeavesOut makes sure a projection does leave values out
// (the reference above would pass an implementation that built everything
// only if project were wrong too).
func TestDecodeProjectedLeavesOut(t *testing.T) {
	v, err := DecodeProjected([]byte(chatRecord), projections["chat"])
	if err != nil {
		t.Fatal(err)
	}
	o := v.(ast.Object)
	if o.Get(ast.StringTerm("tools")) != nil {
		t.Errorf("tools kept: %v", o.Keys())
	}
	m := o.Get(ast.StringTerm("messages")).Value.(*ast.Array).Elem(1).Value.(ast.Object)
	if got := m.Get(ast.StringTerm("content")); got == nil || got.Value != placeholder.Value {
		t.Errorf("content = %v, want the placeholder", got)
	}
	if got := m.Get(ast.StringTerm("role")); got == nil || got.Value != ast.String("user") {
		t.Errorf("role = %v, want user", got)
	}
}

// FuzzDecodeProjected checks that DecodeProjected accepts and rejects what
// Decode does, with the same errors, and keeps the values it projects.
func FuzzDecodeProjected(f *testing.F) {
	for _, in := range validInputs {
		f.Add([]byte(in))
	}
	for _, tc := range invalidInputs {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(chatRecord))
	f.Add([]byte(`{"a":[{"x":1,"y":"z"}],"messages":[{"content":"<tool_call>"}],"b":1e999999}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range projections {
			checkProjected(t, data, p)
		}
	})
}

// TestDecodeProjectedSharesObjects: a projected object made only of shared
// terms (here a user message cut down to its role and the placeholder) is
// one term from decode to decode once its keys and values are interned and
// it has been seen twice (three decodes); an object holding an array of its
// own (an assistant message's tool_calls) is built each time.
func TestDecodeProjectedSharesObjects(t *testing.T) {
	message := func(v ast.Value, i int) *ast.Term {
		return v.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array).Elem(i)
	}
	for range 3 {
		if _, err := DecodeProjected([]byte(chatRecord), projections["chat"]); err != nil {
			t.Fatal(err)
		}
	}
	var prev ast.Value
	for range 3 {
		v, err := DecodeProjected([]byte(chatRecord), projections["chat"])
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil {
			if message(v, 1) != message(prev, 1) {
				t.Errorf("the user message is not shared: %v", message(v, 1))
			}
			if message(v, 2) == message(prev, 2) {
				t.Errorf("the assistant message, with tool_calls of its own, is shared: %v", message(v, 2))
			}
		}
		if whole, _ := Decode([]byte(chatRecord)); message(whole, 1) == message(v, 1) {
			t.Errorf("Decode shares a message with DecodeProjected")
		}
		prev = v
	}
}

// TestDecodeProjectedSharesViews: where the projection asks for a message
// as a view (Projection.View), the message shared from decode to decode is
// a view too, which a reader looks members up in without hashing; the same
// message under a projection without View is shared as OPA's object. The
// two are the same value.
func TestDecodeProjectedSharesViews(t *testing.T) {
	msgs := func(view bool) *Projection {
		return &Projection{Object: true, Members: map[string]*Projection{"messages": {Elem: &Projection{
			Object: true, KeepOthers: true, View: view, Others: &Projection{Stub: true},
			Members: map[string]*Projection{"role": nil, "content": {Probe: true, Needles: []string{"<tool_call>"}}},
		}}}}
	}
	const rec = `{"messages":[{"role":"user","content":"shared views, not hashed"}]}`
	message := func(p *Projection) *ast.Term {
		var v ast.Value
		for range 3 { // shared at its second sighting
			var err error
			if v, err = DecodeProjected([]byte(rec), p); err != nil {
				t.Fatal(err)
			}
		}
		return v.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array).Elem(0)
	}
	view, object := message(msgs(true)), message(msgs(false))
	if again := message(msgs(true)); again != view {
		t.Errorf("the message as a view is not shared: %v", view)
	}
	if _, ok := view.Value.(*ObjectView); !ok {
		t.Errorf("the message of a View projection is shared as %T, want *ObjectView", view.Value)
	}
	if _, ok := object.Value.(*ObjectView); ok {
		t.Errorf("the message of a projection without View is shared as a view")
	}
	if got, want := PlainView(view.Value).String(), object.Value.String(); got != want {
		t.Errorf("the view is %s, the object %s", got, want)
	}
	if view.Value.Hash() != object.Value.Hash() {
		t.Errorf("the view hashes to %d, the object to %d", view.Value.Hash(), object.Value.Hash())
	}
}

// TestProjectionShape: a Shape projection keeps a value's kind and
// emptiness, and scalars as they are; an object or array it describes is
// built as its Members or Elem say.
func TestProjectionShape(t *testing.T) {
	shape := &Projection{Shape: true}
	obj := &Projection{Shape: true, Object: true, Members: map[string]*Projection{"a": shape}}
	cases := []struct {
		in   string
		p    *Projection
		want string
	}{
		{`[0,0,0]`, shape, `[true]`},
		{` [ ] `, shape, `[]`},
		{`[ 
 ]`, shape, `[]`},
		{`{"x":[1,2],"y":2}`, shape, `{"\u2026":true}`},
		{`{ }`, shape, `{}`},
		{`"long text"`, shape, `"long text"`},
		{`-1.5e3`, shape, `-1.5e3`},
		{`null`, shape, `null`},
		{`false`, shape, `false`},
		{`{"a":[1,2,3],"b":"x"}`, obj, `{"a":[true]}`},
		{`[{"a":1}]`, obj, `[true]`},
		{`[{"a":[1]}]`, &Projection{Shape: true, Elem: obj}, `[{"a":[true]}]`},
	}
	for _, c := range cases {
		got, err := DecodeProjected([]byte(c.in), c.p)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		want, _ := Decode([]byte(c.want))
		if got.Compare(want) != 0 {
			t.Errorf("%s: got %v, want %v", c.in, got, want)
		}
	}
	// Errors are those of Decode.
	for _, in := range []string{`[0,0,]`, `{"a":1,}`, `[1e999999]`, `[0`} {
		_, want := Decode([]byte(in))
		_, got := DecodeProjected([]byte(in), shape)
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Errorf("%s: error %v, Decode's %v", in, got, want)
		}
	}
}

// TestDecodeProjectedString: a string decoded in place gives the value and
// the error DecodeProjected gives over a copy of its bytes, escapes and
// short keys (whose hash reads whole words) included.
func TestDecodeProjectedString(t *testing.T) {
	p := &Projection{View: true, Object: true, KeepOthers: true}
	for _, in := range []string{
		``, `{`, `{"a":1}`, `{"k":"v","path":"/a/b","n":[1,2,{"x":null}]}`,
		`{"esc":"line\nnext \u00e9 \ud83d\ude00","a":"b"}`, `"just a string"`, `[1,`, `{"a":1} x`,
	} {
		want, wantErr := DecodeProjected([]byte(in), p)
		got, gotErr := DecodeProjectedString(in, p)
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("%q: error %v, want %v", in, gotErr, wantErr)
			continue
		}
		if wantErr == nil && ast.Compare(PlainView(got), PlainView(want)) != 0 {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}
