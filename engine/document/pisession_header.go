package document

import "github.com/open-policy-agent/opa/v1/ast"

// piSessionHeader is repair's rule for pi transcripts: the header
// {"type": "session", "id": "<non-empty string>"} opens the file.
var piSessionHeader = &Header{
	Valid: func(rec ast.Object) bool { return stringField(rec, keyID) != "" },
	Entry: func(rec ast.Object) bool { return piSessionEntryTypes[stringField(rec, keyType)] },
}

// piSessionEntryTypes are the entry types of pi/OpenClaw session
// transcripts that follow the header. A file whose first record is one of
// them lost its header. Other agent logs (Claude Code's
// "user"/"assistant"/"summary", Codex's "session_meta"/"response_item", …)
// have no header and are not held to one.
var piSessionEntryTypes = map[string]bool{
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
