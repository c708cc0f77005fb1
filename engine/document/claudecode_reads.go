package document

import "github.com/chatlint/chatlint/engine/astjson"

// claudeCodeUnread are the members of a Claude Code entry the builder does
// not read: the working directory, versions, the UI's copies of a tool's
// result (toolUseResult), progress data, file-history snapshots, hook and
// compaction metadata. They reach the document only as members of an
// entry's raw, so an entry's raw leaves out those no rule reads
// (claudeCodeReads). The builder reads type, uuid, parentUuid,
// logicalParentUuid, isSidechain, sessionId, timestamp and message; those,
// and any member not named here, are always decoded.
var claudeCodeUnread = []string{
	"userType", "cwd", "version", "gitBranch", "slug", "requestId", "toolUseResult", "data",
	"toolUseID", "parentToolUseID", "sourceToolUseID", "snapshot", "messageId", "isSnapshotUpdate",
	"subtype", "content", "level", "isMeta", "compactMetadata", "microcompactMetadata", "durationMs",
	"isCompactSummary", "isVisibleInTranscriptOnly", "thinkingMetadata", "todos", "permissionMode",
	"hookCount", "hookInfos", "hookErrors", "preventedContinuation", "stopReason", "hasOutput",
	"agentId", "isApiErrorMessage", "imagePasteIds",
}

// entryRawOmit is the set of claudeCodeUnread members no rule reads of an
// entry's raw, nil when every one may be read.
func entryRawOmit(reads func(path ...string) bool) map[string]bool {
	var omit map[string]bool
	for _, name := range claudeCodeUnread {
		if !reads("entries", "*", "raw", name) {
			if omit == nil {
				omit = map[string]bool{}
			}
			omit[name] = true
		}
	}
	return omit
}

// claudeCodeReads is what the Claude Code builder reads of each line under
// f (Adapter.Reads): the whole line but the members of entryRawOmit, which
// neither it nor a rule reads. A document built from such lines holds the
// same members as one built from whole lines, but for those left out of
// each entry's raw; Go code reads no entry's raw in check (Locate reads an
// entry's line), and fix, convert and stats decode whole lines.
//
// Where the document's messages are MessageValues (no rule that topdown
// evaluates reads it: the claude-code pack's Rego runs as compiled
// closures, which read views), the line and its message are decoded as
// object views, as a Codex rollout's lines are (codexReads), and the
// builder makes each entry a view too: a session of 100,000 lines is
// 300,000 objects that the rules read by a few lookups each, and an OPA
// object is a hash map each. Document.Materialized builds them for any
// other reader.
func claudeCodeReads(f *Fields) *astjson.Projection {
	if f.messages && !f.plainMessages {
		return f.claudeCodeViews
	}
	if len(f.entryRawOmit) == 0 {
		return nil
	}
	return f.entryRawProjection
}

// claudeCodeViews is the projection plain (nil: the line whole) with the
// line and its message decoded as object views.
func claudeCodeViews(plain *astjson.Projection) *astjson.Projection {
	views := viewPath(plain, "message")
	views = viewPath(views, "message", "content", "*")
	views = viewPath(views, "message", "usage")
	top := *views
	top.View = true
	return &top
}
