package contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/lint"
)

// verdict is what one line turned out to be.
type verdict struct {
	line      int
	blank     bool
	code, msg string // an error, or "" for a record that meets the contract
	// For a valid record:
	id, user string
	turns    int
	snapshot []byte // its messages-only line, when asked for
	// key is the record's dataset key (the contract adapter's
	// DatasetKey), folded for the duplicate-id rule.
	key lint.Facts
}

// checkLine decides one line. The structural verdicts (not JSON, not an
// object) are made here; whether a record meets the contract is the pack's.
func (e *evaluator) checkLine(ctx context.Context, n int, line []byte, snapshot bool) (verdict, error) {
	if i := invalidUTF8(line); i >= 0 {
		return verdict{code: CodeInvalidJSON, msg: fmt.Sprintf(
			"Invalid UTF-8: byte 0x%02X at byte %d of the line; the file must be UTF-8 encoded", line[i], i+1)}, nil
	}
	s := trimSpace(line)
	if len(s) == 0 {
		return verdict{blank: true}, nil
	}
	v, err := astjson.DecodeMax(s, e.maxValues)
	if err != nil || bytes.HasPrefix(s, py.BOM) {
		var de *astjson.DenseError
		if errors.As(err, &de) {
			return verdict{code: CodeRecordTooDense, msg: lint.TooDense(de) + "; the line was not validated: raise --max-record-values to validate it"}, nil
		}
		msg, nulled := py.Loads(s)
		if msg != "" {
			return verdict{code: CodeInvalidJSON, msg: msg}, nil
		}
		if nulled != nil { // NaN or Infinity: Python reads them, as numbers
			v, err = astjson.DecodeMax(nulled, e.maxValues)
		}
		if errors.As(err, &de) {
			return verdict{code: CodeRecordTooDense, msg: lint.TooDense(de) + "; the line was not validated: raise --max-record-values to validate it"}, nil
		}
		if err != nil {
			return verdict{code: CodeInvalidJSON, msg: err.Error()}, nil
		}
	}
	obj, ok := v.(ast.Object)
	if !ok {
		return verdict{code: CodeNonObject, msg: fmt.Sprintf("Expected JSON object, got %s.", pyTypeName(v, s))}, nil
	}
	code, msg, err := e.check(ctx, n, obj)
	if err != nil || code != "" {
		return verdict{code: code, msg: msg}, err
	}
	// The pack passed the record, so these fields have their contract types;
	// a pack that lets through a record without them is a bug in the pack.
	id, ok1 := member(obj, keyConvID).(ast.String)
	user, ok2 := member(obj, keyUserID).(ast.String)
	msgs, ok3 := member(obj, keyMessages).(*ast.Array)
	if !ok1 || !ok2 || !ok3 || !messagesOK(msgs) {
		return verdict{}, fmt.Errorf("line %d: the %s pack passed a record that breaks the contract", n, PackName)
	}
	out := verdict{id: string(id), user: string(user), turns: msgs.Len(), key: lint.Facts{Line: n}}
	out.key.Member, out.key.Key = e.key(obj)
	if snapshot {
		out.snapshot = snapshotLine(out.id, msgs)
	}
	return out, nil
}

var (
	keyConvID   = ast.StringTerm("conversation_id")
	keyUserID   = ast.StringTerm("user_id")
	keyMessages = ast.StringTerm("messages")
	keyRole     = ast.StringTerm("role")
	keyContent  = ast.StringTerm("content")
)

// member returns obj[key], or nil when it is missing.
func member(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}

// messagesOK says whether every message is an object with string role and
// content, which the snapshot relies on.
func messagesOK(msgs *ast.Array) bool {
	for i := 0; i < msgs.Len(); i++ {
		m, ok := msgs.Elem(i).Value.(ast.Object)
		if !ok {
			return false
		}
		_, ok1 := member(m, keyRole).(ast.String)
		_, ok2 := member(m, keyContent).(ast.String)
		if !ok1 || !ok2 {
			return false
		}
	}
	return true
}

// snapshotLine is the privacy-minimized form of a valid record: only its id
// and messages, written as the contract's pipeline writes its snapshot
// (Python's json.dumps defaults, role before content).
func snapshotLine(id string, msgs *ast.Array) []byte {
	ms := make([]jsonv.Value, msgs.Len())
	for i := range ms {
		m := msgs.Elem(i).Value.(ast.Object)
		ms[i] = &jsonv.Object{Members: []jsonv.Member{
			{Key: "role", Value: string(m.Get(keyRole).Value.(ast.String))},
			{Key: "content", Value: string(m.Get(keyContent).Value.(ast.String))},
		}}
	}
	rec := &jsonv.Object{Members: []jsonv.Member{{Key: "conversation_id", Value: id}, {Key: "messages", Value: ms}}}
	return append(jsonv.Marshal(rec, jsonv.PythonASCII), '\n')
}

// pyTypeName names a JSON value's type as Python does once it is loaded.
func pyTypeName(v ast.Value, text []byte) string {
	switch v := v.(type) {
	case *ast.Array:
		return "list"
	case ast.String:
		return "str"
	case ast.Boolean:
		return "bool"
	case ast.Null:
		if text[0] != 'n' { // NaN or Infinity, read as null here
			return "float"
		}
		return "NoneType"
	case ast.Number:
		if bytes.ContainsAny([]byte(v), ".eE") {
			return "float"
		}
		return "int"
	}
	return "object"
}

// invalidUTF8 returns the offset of the first byte that is not valid UTF-8,
// or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// trimSpace strips what Python's str.strip() strips: Unicode whitespace
// and the ASCII separators U+001C..U+001F. A line that is nothing else is
// blank.
func trimSpace(b []byte) []byte { return bytes.TrimFunc(b, py.IsSpace) }
