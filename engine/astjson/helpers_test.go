package astjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// reference decodes data the slow, trusted way: encoding/json decides
// validity (plus the UTF-8 rule, which encoding/json does not enforce), and
// ast.ValueFromReader, i.e. encoding/json with UseNumber followed by
// ast.InterfaceToValue, builds the value.
func reference(data []byte) (ast.Value, error) {
	if !json.Valid(data) {
		return nil, errors.New("json.Valid reports invalid JSON")
	}
	if !utf8.Valid(data) {
		return nil, errors.New("invalid UTF-8")
	}
	return ast.ValueFromReader(bytes.NewReader(data))
}

// checkSame fails t unless got and want are the same value. Besides
// ast.Compare it checks the hash, which OPA caches per container: a container
// built wrongly (say, an object holding a key twice) can hash differently from
// the reference.
func checkSame(t testing.TB, data []byte, got, want ast.Value) {
	t.Helper()
	if ast.Compare(got, want) == 0 && got.Hash() == want.Hash() {
		return
	}
	gotJSON, err1 := ast.JSON(got)
	wantJSON, err2 := ast.JSON(want)
	if err1 != nil || err2 != nil {
		t.Fatalf("Decode(%q) = %v, want %v", data, got, want)
	}
	t.Fatalf("Decode(%q) differs from the reference (-want +got):\n%s\nhash got %d want %d",
		truncate(data), cmp.Diff(wantJSON, gotJSON), got.Hash(), want.Hash())
}

func truncate(b []byte) []byte {
	if len(b) > 200 {
		return append(b[:200:200], "..."...)
	}
	return b
}
