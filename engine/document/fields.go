package document

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Fields says which members of the document the active rules may read, so
// that the builder leaves out the ones no rule reads (Options.Fields; see
// policy.Engine.Fields for the analysis). A member a rule may read is always
// there, exactly as without Fields: leaving members out never changes what a
// rule sees of the members it reads.
//
// Go code that reads a document (Document.Locate placing a finding,
// Messages, Tools, Entries) reads the whole document, built again from the
// record on first use: a pruned document pays for it only when a finding
// names one of its elements. Chat and contract documents (fromRecord) and
// proxy-log sessions (proxyLog.value) are pruned; the builders of other
// formats ignore Fields.
type Fields struct {
	all bool // every member: the same as no Fields
	// top-level members
	messages, tools, entries, raw, mode, lookup, file, line, id, profile, model bool
	// members of each message
	msgIndex, role, text, hasContent, toolCalls, turn, msgLine, msgPath, msgRaw, toolCallID, stopReason, isError, msgLines bool
	// members of each tool call
	callIndex, callID, callName, callArguments, callHasInput, callPath bool
	// entryRawOmit are the members of a Claude Code entry that an
	// entry's raw leaves out (claudecode_reads.go), and
	// entryRawProjection the projection that leaves them out.
	entryRawOmit       map[string]bool
	entryRawProjection *astjson.Projection
	// claudeCodeViews does the same with the line and its message as
	// views.
	claudeCodeViews *astjson.Projection
	// codexProjection decodes a Codex line without the members of its
	// payload no rule reads (codex_reads.go), nil when every one may be;
	// codexViews does the same with the line and its payload as views.
	codexProjection, codexViews *astjson.Projection
	// entryUnread are the members of a session's entries (entries.*.NAME)
	// no rule reads, of those the Claude Code builder may leave out.
	entryUnread map[string]bool
	// plainMessages builds pruned messages as OPA objects rather than
	// MessageValues (PlainMessages).
	plainMessages bool
	// shared holds the messages every record shares (builder_shared.go);
	// nil when f keeps a member of each message's own.
	shared *sharedMessages
	// rawReads, when set, is what the rules read of the raw forms
	// (WithRaw); else a rule reading raw reads the record whole.
	rawReads *rawReads
	// gated says f keeps what the YAML rules and the gates read, and the
	// Rego rules read the document built whole (ForGate, gated.go).
	gated bool
	// lookupUnread are the members of the lookup no rule reads
	// (lookupMembers; lookup_fields.go): none unless NewFields found them.
	lookupUnread lookupSet
}

// NewFields asks reads about every member the builder can leave out. reads
// gets a path of member names, "*" standing for any element of an array;
// it must answer true for any member a rule may read, or under which a rule
// may read anything.
func NewFields(reads func(path ...string) bool) *Fields {
	msg := func(name string) bool { return reads("messages", "*", name) }
	call := func(name string) bool { return reads("messages", "*", "tool_calls", "*", name) }
	f := &Fields{
		messages: reads("messages"), tools: reads("tools"), entries: reads("entries"),
		raw: reads("raw"), mode: reads("mode"), lookup: reads("lookup"),
		file: reads("file"), line: reads("line"), id: reads("id"),
		profile: reads("profile"), model: reads("model"),

		msgIndex: msg("index"), role: msg("role"), text: msg("text"), hasContent: msg("has_content"),
		toolCalls: msg("tool_calls"), turn: msg("turn"), msgLine: msg("line"), msgPath: msg("path"),
		msgRaw: msg("raw"), toolCallID: msg("tool_call_id"), stopReason: msg("stop_reason"),
		isError: msg("is_error"), msgLines: msg("lines"),

		callIndex: call("index"), callID: call("id"), callName: call("name"),
		callArguments: call("arguments"), callHasInput: call("has_input"), callPath: call("path"),
	}
	if !f.readsOwn() {
		f.shared = &sharedMessages{}
	}
	if f.lookup {
		f.lookupUnread = lookupUnread(reads)
	}
	for _, name := range []string{"session_id", "timestamp", "message_id", "raw"} {
		if !reads("entries", "*", name) {
			if f.entryUnread == nil {
				f.entryUnread = map[string]bool{}
			}
			f.entryUnread[name] = true
		}
	}
	if f.entryRawOmit = entryRawOmit(reads); f.entryRawOmit != nil {
		f.entryRawProjection = &astjson.Projection{Object: true, KeepOthers: true, Omit: f.entryRawOmit}
	}
	f.claudeCodeViews = claudeCodeViews(f.entryRawProjection)
	f.codexProjection, f.codexViews = codexProjections(codexPayloadOmit(reads))
	return f
}

// AllFields is a Fields that keeps every member, as no Fields does: a
// caller that must see whole documents sets it so that no analysis prunes.
func AllFields() *Fields { return &Fields{all: true} }

// All reports whether f keeps every member.
func (f *Fields) All() bool { return f == nil || f.all }

// needsMessages reports whether the document's messages must be built:
// a rule reads them, or the lookup built from them.
func (f *Fields) needsMessages() bool { return f.All() || f.messages || f.lookup }

// needsMode reports whether the record's mode must be detected: a rule
// reads it, or the messages (their tool calls depend on it).
func (f *Fields) needsMode() bool { return f.All() || f.mode || f.needsMessages() }

// PlainMessages returns f building its pruned messages as OPA objects
// rather than as MessageValues (message_value.go): the tests that compare
// the two use it.
func (f *Fields) PlainMessages() *Fields {
	if f.All() {
		return f
	}
	g := *f
	g.plainMessages = true
	g.shared = nil
	if !g.readsOwn() {
		g.shared = &sharedMessages{}
	}
	return &g
}

// readsEntry reports whether a rule may read the member key of a session's
// entries: every member is kept but those NewFields found unread.
func (f *Fields) readsEntry(key *ast.Term) bool {
	if f.All() || f.entryUnread == nil {
		return true
	}
	name, _ := key.Value.(ast.String)
	return !f.entryUnread[string(name)]
}
