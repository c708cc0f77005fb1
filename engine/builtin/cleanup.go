package builtin

import "github.com/chatlint/chatlint/engine/document"

// defaultCleanup is the built-in cleanup pack fixing runs on each format
// when no pack is named: the transcript repair for agent sessions, the
// OpenAI tool-message rules for everything that is sent to a chat API as is
// (proxy-log sessions are fixed on the line holding the squashed record).
var defaultCleanup = map[document.Format]string{
	document.PiSession: "transcript",
	document.Chat:      "openai-tools",
	document.Contract:  "openai-tools",
	document.ProxyLog:  "openai-tools",
	// The formats whose messages are converted to OpenAI's when they are
	// sent or trained on: the same tool-message rules, written back in each
	// format's own layout (document.Layout). Batch outputs and results are
	// not fixed (their adapters say why).
	document.ShareGPT:         "openai-tools",
	document.Gemini:           "openai-tools",
	document.OpenAIBatchInput: "openai-tools",
	document.AnthropicBatch:   "openai-tools",
	document.ClaudeCode:       "transcript",
	document.Codex:            "transcript",
}

// firstStages are packs run before the default pack on a format, as stages:
// Claude Code and Codex sessions are sent to an API that rejects a tool call
// id used twice, so openai-tools renames reused ids (with their results) and
// moves stray results back before transcript pairs results in call order and
// synthesises the missing ones.
var firstStages = map[document.Format][]string{
	document.ClaudeCode: {"openai-tools"},
	document.Codex:      {"openai-tools"},
}

// DefaultCleanup returns the pack reference ("builtin:NAME") of the cleanup
// pack `chatlint fix` and `chatlint-beam --fix` run on files of format f
// when no --pack is given, or "" for a format without one.
func DefaultCleanup(f document.Format) string {
	name, ok := defaultCleanup[f]
	if !ok {
		return ""
	}
	return "builtin:" + name
}

// CleanupRefs returns the cleanup packs fixing runs on files of format f, as
// stages in order: the packs the user named (--pack), each on every format,
// or else the format's default pack, if it has one.
func CleanupRefs(f document.Format, packs []string) []string {
	if len(packs) > 0 {
		return packs
	}
	ref := DefaultCleanup(f)
	if ref == "" {
		return nil
	}
	var refs []string
	for _, name := range firstStages[f] {
		refs = append(refs, "builtin:"+name)
	}
	return append(refs, ref)
}
