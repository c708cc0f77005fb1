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

// headerOK reports whether first, the first record kept from a file, is
// acceptable under mode: either the file is not a session transcript, or
// first is its header {"type": "session", "id": "<non-empty string>"}.
func headerOK(first []byte, mode Sessions) bool {
	if mode == NoSessions {
		return true
	}
	v, err := astjson.Decode(first)
	obj, isObj := v.(ast.Object)
	if err != nil || !isObj {
		return mode != AllSessions
	}
	if f, ok := document.Detect(obj); ok && f == document.PiSession {
		id, _ := stringField(obj, keyID)
		return id != ""
	}
	if mode == AllSessions {
		return false
	}
	typ, _ := stringField(obj, keyType)
	return !sessionEntryTypes[typ]
}

func stringField(obj ast.Object, key *ast.Term) (string, bool) {
	t := obj.Get(key)
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}
