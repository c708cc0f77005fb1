package repair

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// Sessions says how a file's first record is judged.
type Sessions int

const (
	// DetectSessions treats a file as an pi-session transcript when its
	// first record is a session header, or an entry that only a session
	// transcript has (see sessionEntryTypes): such a file must start with a
	// valid header.
	DetectSessions Sessions = iota
	// AllSessions requires the header in every file (--format pi-session).
	AllSessions
	// NoSessions never requires a header (--format chat and the others).
	NoSessions
)

// sessionEntryTypes are the entry types of pi/OpenClaw session transcripts
// that follow the header. A file whose first record is one of them lost its
// header. Other agent logs (Claude Code's "user"/"assistant"/"summary",
// Codex's "session_meta"/"response_item", …) have no header and are not
// held to one.
var sessionEntryTypes = map[string]bool{
	"message":               true,
	"model_change":          true,
	"thinking_level_change": true,
	"compaction":            true,
	"branch_summary":        true,
	"custom":                true,
	"custom_message":        true,
	"label":                 true,
	"session_info":          true,
}

var (
	keyType = ast.StringTerm("type")
	keyID   = ast.StringTerm("id")
)

// probeRecords is how many records after the first headerOK looks at to
// recognize a transcript whose first record is not a header.
const probeRecords = 8

// headerOK reports whether first, the first record kept from a file, is
// acceptable under mode: either the file is not a session transcript, or
// first is its header {"type": "session", "id": "<non-empty string>"}. A file
// is a transcript when first is a header or a transcript-only entry, or when
// first is of no known format and one of next (the records after it, at most
// probeRecords) is a transcript entry: a header damaged into
// {"type": "Session", …} is still a transcript's, and the transcript repair
// this replaces refuses such a file rather than repairing it as plain JSONL.
func headerOK(first []byte, next [][]byte, mode Sessions) bool {
	if mode == NoSessions {
		return true
	}
	obj, isObj := object(first)
	if !isObj {
		return mode != AllSessions
	}
	f, known := document.Detect(obj)
	if known && f == document.PiSession {
		id, _ := stringField(obj, keyID)
		return id != ""
	}
	if mode == AllSessions || sessionEntry(obj) {
		return false
	}
	if known {
		return true
	}
	for _, rec := range next {
		if o, ok := object(rec); ok && sessionEntry(o) {
			return false
		}
	}
	return true
}

func object(data []byte) (ast.Object, bool) {
	v, err := astjson.Decode(data)
	if err != nil {
		return nil, false
	}
	obj, ok := v.(ast.Object)
	return obj, ok
}

// sessionEntry reports whether obj is an entry only a session transcript has.
func sessionEntry(obj ast.Object) bool {
	typ, _ := stringField(obj, keyType)
	return sessionEntryTypes[typ]
}

func stringField(obj ast.Object, key *ast.Term) (string, bool) {
	t := obj.Get(key)
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}
