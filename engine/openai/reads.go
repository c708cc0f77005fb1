package openai

import "github.com/chatlint/chatlint/engine/document"

// ReadOptions are opts for the documents of format f that Convert is given:
// without the lookup, which only rules read (Convert reads no entries and
// no lookup), and a Claude Code session with every member but its entries
// (claudeCodeFields).
func ReadOptions(f document.Format, opts document.Options) document.Options {
	opts.SkipLookup = true
	if f == document.ClaudeCode {
		opts.Fields = claudeCodeFields
	}
	return opts
}

// claudeCodeFields keep every member of a Claude Code session but its
// entries: each line is then decoded without the members only an entry's
// raw holds (progress data, snapshots, the UI's copies of tool results),
// and as views, as check decodes them, and Convert reads the messages'
// views without building their objects (document.JSONValue). The Claude
// Code builder names no member of a line Unmapped, so the notes are the
// same as from whole lines; a builder that does (Codex names the payload
// members it reads into no message) keeps its lines whole.
var claudeCodeFields = document.NewFields(func(path ...string) bool {
	return path[0] != "entries" && path[0] != "lookup"
})
