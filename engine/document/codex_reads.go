package document

import "github.com/chatlint/chatlint/engine/astjson"

// codexUnread are members of a Codex rollout line's payload that the builder
// does not read: the session's and turn's settings (session_meta,
// turn_context), what the UI showed and counted (event_msg: the user's and
// agent's text again, token counts, rate limits, a command's output and its
// parse), and a reasoning item's summary and encrypted content. A payload is
// an entry's raw.payload and, for a response item, a message's raw, so one
// of them is left out of the decoded line only when no rule reads it in
// either place (codexPayloadOmit). The builder reads type, timestamp and of
// the payload type, id, role, content, call_id, name, arguments, input,
// action and output; those, and any member not named here, are always
// decoded.
var codexUnread = []string{
	// session_meta and turn_context
	"cwd", "originator", "cli_version", "instructions", "source", "model_provider", "git",
	"approval_policy", "sandbox_policy", "model", "effort", "summary", "user_instructions",
	"truncation_policy", "final_output_json_schema",
	// event_msg
	"message", "images", "info", "rate_limits", "aggregated_output", "stdout", "stderr",
	"formatted_output", "duration", "command", "parsed_cmd", "turn_id", "last_agent_message",
	"exit_code", "status",
	// reasoning
	"encrypted_content",
}

// codexPayloadOmit is the set of codexUnread members that no rule reads of
// an entry's raw payload nor of a message's raw, nil when every one may be
// read.
func codexPayloadOmit(reads func(path ...string) bool) map[string]bool {
	var omit map[string]bool
	for _, name := range codexUnread {
		if !reads("entries", "*", "raw", "payload", name) && !reads("messages", "*", "raw", name) {
			if omit == nil {
				omit = map[string]bool{}
			}
			omit[name] = true
		}
	}
	return omit
}

// codexProjections are the projection of a Codex line that leaves out the
// members of its payload omit names (nil when it names none: the line
// whole), and the same projection building the line and its payload as
// object views.
func codexProjections(omit map[string]bool) (plain, views *astjson.Projection) {
	if omit != nil {
		plain = &astjson.Projection{Object: true, KeepOthers: true, Members: map[string]*astjson.Projection{
			"payload": {Object: true, KeepOthers: true, Omit: omit},
		}}
	}
	views = viewPath(plain, "payload")
	top := *views
	top.View = true
	return plain, &top
}

// codexReads is what the Codex builder reads of each line under f
// (Adapter.Reads): the whole line but the members of its payload that
// codexPayloadOmit names. A document built from such lines holds the same
// members as one built from whole lines, but for those left out of each
// payload (an entry's raw.payload, a message's raw); Go code reads neither
// (Locate and fix's applier read an entry's or a message's line and path,
// the applier rewrites the line's own bytes), and convert and stats decode
// whole lines.
//
// Where the document's messages are MessageValues (no Rego rule reads it),
// the line and its payload are decoded as object views, as a chat record's
// raw messages are (rawMessageViews), and the builder makes each entry a
// view too: a rollout of 10,000 lines is 20,000 objects that the YAML rules
// read by a few lookups each, and an OPA object is a hash map each.
// Document.Materialized builds them for any other reader.
func codexReads(f *Fields) *astjson.Projection {
	if f.messages && !f.plainMessages {
		return f.codexViews
	}
	return f.codexProjection
}

// everyMember is a Fields that keeps every member but is not All: a
// document built under it is whole, with its messages as MessageValues.
var everyMember = NewFields(func(...string) bool { return true })
