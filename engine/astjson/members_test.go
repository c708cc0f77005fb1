package astjson

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestMembersByPinnedNames: a projection matched by its names' pinned
// entries (members.go) keeps, omits and leaves out exactly the members the
// same projection matched by its maps does (one name too long to pin sends
// it there), escaped names and names no record has included; and a copy of
// a projection whose index was built, given other members, matches its own.
func TestMembersByPinnedNames(t *testing.T) {
	const unpinnable = "a member name longer than thirty-two bytes, never pinned"
	inputs := []string{
		`{"role":"user","content":"hi","extra":[1,2],"secret":"s","r\u006fle":"assistant","n":1}`,
		`{"id":"x","messages":[{"role":"tool","tool_call_id":"c","content":{"a":1},"skip":true}],"meta":{"k":"v"}}`,
		`{"z":1}`, `{}`, `[{"role":"user"}]`,
	}
	projections := map[string]func() *Projection{
		"members only": func() *Projection {
			return &Projection{Object: true, Members: map[string]*Projection{"role": nil, "id": nil, "never_seen_name": nil}}
		},
		"keep others, omit": func() *Projection {
			return &Projection{Object: true, KeepOthers: true, Others: &Projection{Stub: true},
				Members: map[string]*Projection{"content": {Stub: true}, "messages": {Elem: &Projection{Object: true, View: true, Members: map[string]*Projection{"role": nil, "content": {Shape: true}}}}},
				Omit:    map[string]bool{"secret": true, "meta": true, "n": false}}
		},
		"views": func() *Projection {
			return &Projection{Object: true, View: true, KeepOthers: true, Members: map[string]*Projection{"role": nil}}
		},
	}
	for name, mk := range projections {
		p, ref := mk(), mk()
		if ref.Members == nil {
			ref.Members = map[string]*Projection{}
		}
		ref.Members[unpinnable] = &Projection{Stub: true}
		if !p.members().exact || ref.members().exact {
			t.Fatalf("%s: exact %v, reference exact %v", name, p.members().exact, ref.members().exact)
		}
		for _, in := range inputs {
			for range 2 { // the second time, the names are interned
				got, err := DecodeProjected([]byte(in), p)
				want, werr := DecodeProjected([]byte(in), ref)
				if (err == nil) != (werr == nil) {
					t.Fatalf("%s: %s: error %v, want %v", name, in, err, werr)
				}
				if err == nil && ast.Compare(PlainView(got), PlainView(want)) != 0 {
					t.Errorf("%s: %s:\n got %v\nwant %v", name, in, got, want)
				}
			}
		}
	}

	p := &Projection{Object: true, Members: map[string]*Projection{"role": nil}}
	if _, err := DecodeProjected([]byte(`{"role":"user"}`), p); err != nil {
		t.Fatal(err)
	}
	q := *p
	q.Members = map[string]*Projection{"content": nil}
	got, err := DecodeProjected([]byte(`{"role":"user","content":"c"}`), &q)
	if err != nil {
		t.Fatal(err)
	}
	if want := ast.MustParseTerm(`{"content":"c"}`).Value; ast.Compare(got, want) != 0 {
		t.Errorf("copy of a projection: got %v, want %v", got, want)
	}
}
