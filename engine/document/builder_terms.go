package document

import (
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Every document repeats a few strings of its own: its format, its mode and
// the name of its file. Building a term for each per record cost three
// allocations per document; these terms are built once and shared instead
// (terms are never mutated).

// nameTerms holds a term per format name and per mode, built at init and
// only read after. The registry cannot be ranged over here (its adapters
// build documents: an initialization cycle), so the formats are listed;
// TestNameTerms fails when one is missing.
var nameTerms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, s := range [...]string{
		modeInline, modeStructured,
		string(Chat), string(ProxyLog), string(PiSession), string(Contract), string(ShareGPT), string(Gemini),
		string(OpenAIBatchInput), string(OpenAIBatchOutput), string(AnthropicBatch), string(GooseSession),
		string(ClaudeCode), string(Codex), string(Preference), string(Instruction), string(Text), string(BedrockConversation),
	} {
		m[s] = ast.StringTerm(s)
	}
	return m
}()

// nameTerm is strTerm for a format name or a mode: shared when it is a
// known one.
func nameTerm(s string) *ast.Term {
	if t, ok := nameTerms[s]; ok {
		return t
	}
	return strTerm(s)
}

// lastFile is the term of the file most recently named: the documents of
// one file follow one another, so one entry serves nearly all of them.
var lastFile atomic.Pointer[ast.Term]

// fileTerm is strTerm for a document's file name.
func fileTerm(file string) *ast.Term {
	if t := lastFile.Load(); t != nil && string(t.Value.(ast.String)) == file {
		return t
	}
	t := strTerm(file)
	lastFile.Store(t)
	return t
}
