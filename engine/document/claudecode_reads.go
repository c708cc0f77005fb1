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
func claudeCodeReads(f *Fields) *astjson.Projection {
	if len(f.entryRawOmit) == 0 {
		return nil
	}
	return f.entryRawProjection
}
