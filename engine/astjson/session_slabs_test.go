package astjson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSlabsShareBlocks: the lines of a session decoded in one Slabs are the
// values decoded alone, and cost less: a line alone starts a block of
// sixteen terms, of which a short line uses a few.
func TestSlabsShareBlocks(t *testing.T) {
	const n = 2000
	lines := make([][]byte, n)
	for i := range lines {
		lines[i] = fmt.Appendf(nil, `{"parentUuid":"00000000-0000-4000-8000-%012d","sessionId":"5e55a0b0-0000-4000-8000-000000000001","timestamp":"2026-01-02T00:00:%02d.000Z","type":"progress","uuid":"00000000-0000-4000-8000-%012d","n":[%d,"a long enough string"]}`, i, i%60, i+1, i)
	}
	p := &Projection{Object: true, KeepOthers: true}
	alone := make([]ast.Value, n)
	shared := make([]ast.Value, n)
	aloneBytes := allocated(func() {
		for i, l := range lines {
			v, err := DecodeProjected(l, p)
			if err != nil {
				t.Fatal(err)
			}
			alone[i] = v
		}
	})
	var s Slabs
	sharedBytes := allocated(func() {
		for i, l := range lines {
			v, err := DecodeProjectedIn(l, p, &s, -1)
			if err != nil {
				t.Fatal(err)
			}
			shared[i] = v
		}
	})
	for i, l := range lines {
		want, _ := reference(l)
		checkSame(t, l, alone[i], want)
		checkSame(t, l, shared[i], want)
	}
	if sharedBytes*10 > aloneBytes*8 {
		t.Errorf("%d lines decoded in one Slabs allocated %d bytes, alone %d: want at most 0.8 of it", n, sharedBytes, aloneBytes)
	}
}

// TestSlabsShareRecentStrings: a string a session's lines repeat (an id too
// long to intern) is one term in every line decoded in one Slabs, and two
// strings that differ stay apart.
func TestSlabsShareRecentStrings(t *testing.T) {
	p := &Projection{Object: true, KeepOthers: true}
	const session = "5e55a0b0-0000-4000-8000-000000000001"
	s := NewSlabs(true)
	var ids, parents, uuids []*ast.Term
	for i := range 100 {
		line := fmt.Appendf(nil, `{"parentUuid":"00000000-0000-4000-8000-%012d","sessionId":%q,"uuid":"00000000-0000-4000-8000-%012d"}`, i, session, i+1)
		v, err := DecodeProjectedIn(line, p, s, -1)
		if err != nil {
			t.Fatal(err)
		}
		o := v.(ast.Object)
		ids = append(ids, o.Get(ast.StringTerm("sessionId")))
		parents = append(parents, o.Get(ast.StringTerm("parentUuid")))
		uuids = append(uuids, o.Get(ast.StringTerm("uuid")))
		if i > 0 {
			if ids[i] != ids[0] {
				t.Fatalf("line %d: sessionId is a term of its own, want line 0's", i)
			}
			if parents[i] != uuids[i-1] {
				t.Fatalf("line %d: parentUuid is a term of its own, want line %d's uuid", i, i-1)
			}
		}
		if parents[i] == uuids[i] {
			t.Fatalf("line %d: parentUuid and uuid share a term", i)
		}
	}
	for i := 1; i < len(parents); i++ {
		if parents[i] == parents[i-1] {
			t.Fatalf("lines %d and %d: different parents share a term", i-1, i)
		}
	}
	if got := string(ids[99].Value.(ast.String)); got != session {
		t.Fatalf("sessionId = %q", got)
	}
}

// TestSlabsRecentStringsNotSharedObjects: an object whose members are a
// session's repeated strings belongs to the session. Were it taken for an
// object of process-wide shared terms, it would go to the shared table,
// built as an OPA object, and pin the session's blocks after its end.
func TestSlabsRecentStringsNotSharedObjects(t *testing.T) {
	p := &Projection{Object: true, KeepOthers: true}
	s := NewSlabs(true)
	line := []byte(`{"payload":{"call_id":"call_0123456789abcdefghijklmnopqrstuvwxyz"}}`)
	var got []*ast.Term
	for range 4 {
		v, err := DecodeProjectedIn(line, p, s, -1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v.(ast.Object).Get(ast.StringTerm("payload")))
	}
	for i := 1; i < len(got); i++ {
		if got[i] == got[i-1] {
			t.Fatalf("lines %d and %d share their payload object: it went to the process-wide table", i-1, i)
		}
	}
}

// TestSlabsShareRecentOnlyWhenAsked: a session whose lines repeat no ids
// (NewSlabs(false)) makes each string its own term, as a line decoded on its
// own does: the lookup per string would cost it time for nothing.
func TestSlabsShareRecentOnlyWhenAsked(t *testing.T) {
	p := &Projection{Object: true, KeepOthers: true}
	s := NewSlabs(false)
	line := []byte(`{"id":"req_0123456789abcdefghijklmnopqrstuvwxyz"}`)
	var got []*ast.Term
	for range 2 {
		v, err := DecodeProjectedIn(line, p, s, -1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v.(ast.Object).Get(ast.StringTerm("id")))
	}
	if got[0] == got[1] {
		t.Fatal("the two lines share the id's term, want a term each")
	}
}

// TestSlabsKeepOutOfRepeatCache: a value carved from a session's blocks
// never enters the process-wide repeat cache, where it would keep its
// block, and through it every line of the session, alive; decoded alone,
// the same value is cached from its second decode on.
func TestSlabsKeepOutOfRepeatCache(t *testing.T) {
	tools := `[{"type":"function","function":{"name":"slabs_keep_out_of_repeat_cache","description":"` + strings.Repeat("d", 300) + `"}}]`
	line := []byte(`{"tools":` + tools + `}`)
	member := func(v ast.Value, err error) *ast.Term {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v.(ast.Object).Get(ast.StringTerm("tools"))
	}
	var s Slabs
	var carved []*ast.Term
	for range 3 {
		carved = append(carved, member(DecodeProjectedIn(line, nil, &s, -1)))
	}
	if carved[1] == carved[2] {
		t.Error("the third session line took the second's tools from the repeat cache: the cache holds a carved term")
	}
	var alone []*ast.Term
	for range 3 {
		alone = append(alone, member(Decode(line)))
	}
	if alone[1] != alone[2] {
		t.Error("decoded alone, the tools were not taken from the repeat cache on the third decode")
	}
	for _, c := range carved {
		if c == alone[2] {
			t.Error("the repeat cache holds a term carved from the session's blocks")
		}
	}
}
