package document

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Format names an input format.
type Format string

const (
	Chat      Format = "chat"
	ProxyLog  Format = "proxy-log"
	PiSession Format = "pi-session"
	Contract  Format = "contract"

	ShareGPT          Format = "sharegpt"
	Gemini            Format = "gemini"
	OpenAIBatchInput  Format = "openai-batch-input"
	OpenAIBatchOutput Format = "openai-batch-output"
	AnthropicBatch    Format = "anthropic-batch"
	GooseSession      Format = "goose-session"

	Preference          Format = "preference"
	Instruction         Format = "instruction"
	Text                Format = "text"
	BedrockConversation Format = "bedrock-conversation"
)

// Adapter is one input format: how a file in it is recognized and how its
// records become documents. Each format's file declares its adapter; the
// registry below is the only list of formats, and flag help, detection,
// messages and docs derive from it.
type Adapter struct {
	Format Format
	// Summary says in one line what the format holds, for help and docs.
	Summary string
	// PerFile is true when one document spans the whole file (a session).
	PerFile bool
	// RepeatsIDs: a session whose lines repeat strings too long to intern
	// (its id on every line, each entry's uuid as the next one's parent,
	// a call's id in its output), which its decode then holds once
	// (astjson.NewSlabs).
	RepeatsIDs bool
	// Detect reports whether a file whose first JSON object is rec is in
	// this format. Adapters are asked in registry order; the first wins.
	Detect func(rec ast.Object) bool
	// Shape says what a record of the format has, for the format-mismatch
	// finding when the user forced the format and a record is not one:
	// every record of a per-record format, the first of a whole-file one.
	// A record fits when Detect recognizes it, unless Fits says otherwise.
	Shape string
	// Fits, when set, replaces the Detect test for a forced format (a test
	// looser than detection); it returns what the record lacks, "" when it
	// fits.
	Fits func(rec ast.Object) (missing string)
	// Unread, when set, says what of rec the builder cannot read although
	// the record has the format's members (messages with no role at all,
	// say), "" when it reads it all. Detection claims a file only by a
	// record it reads, and every later record it cannot read (every record
	// of a per-record format, the first of a whole-file one) is reported
	// as format-mismatch and left as it is, rather than guessed at: check
	// does not check it, fix does not touch it. It reads only members the
	// format's projection keeps (Reads) when they matter: a member the
	// projection left out reads as absent, which must fit.
	Unread func(rec ast.Object) string
	// NewBuilder returns the builder of one file's documents.
	NewBuilder func(file string, opts Options) Builder
	// Reads, when set, says what the builder reads of each raw record to
	// build documents with the members f keeps, so that the decoder builds
	// only that (see Projection); nil, or a nil result, decodes records
	// whole.
	Reads func(f *Fields) *astjson.Projection
	// Layout, when set, tells fix how the format writes a message where it
	// differs from OpenAI's {role, content} (see layout.go).
	Layout *Layout
	// Unfixable, when set, says why fix cannot rewrite a record of this
	// format in its own layout ("" when it can): fix then refuses the whole
	// file rather than damage it.
	Unfixable func(rec ast.Object) string
	// Cleanup names the built-in cleanup packs (policies/NAME, kind
	// cleanup) fix runs on a file of the format when no pack is named, as
	// stages in order; none for a format fix refuses (Unfixable).
	Cleanup []string
	// UniqueKey, when set, names the member that must be unique among a
	// file's records and returns its value ("" when the record has none):
	// the reader, which sees every record of a file in order, tells each
	// record's document the line that used its value first (see
	// Document.MarkDuplicate). Per-record formats only.
	UniqueKey func(rec ast.Object) (member, value string)
	// DatasetKey, when set, names the member whose value identifies a
	// record within its file and returns its value (member "" when the
	// record has none; an empty value is a value): the dataset fold keeps the first line of each value and lists
	// the records that repeat one in the file's dataset document, for a
	// dataset rule to judge (docs/document.md#the-dataset-document).
	// Per-record formats only.
	DatasetKey func(rec ast.Object) (member, value string)
	// DatasetKeyMember is the top-level member DatasetKey reads, so that a
	// fold that reads only the keys decodes that member of each record
	// and not the record whole (Fields.WithDatasetKey).
	DatasetKeyMember string
	// Entries, when set, says that each message of the format is one or
	// more lines of their own (entries), and how fix writes them: it drops
	// and moves a message's lines, wraps an inserted message in a new
	// entry, and mends the links between entries.
	Entries *EntryLayout
	// MessageLines is true when each message of the format is the
	// "message" member of a line of its own, in entries typed "message" and
	// chained by id/parentId, with no EntryLayout (a pi transcript): fix
	// drops a dropped message's line, wraps an inserted message in an entry
	// modelled on its anchor's and rechains the parent ids; a message that
	// is an element of a list inside its line (an Anthropic-style
	// tool_result block) is dropped from that list, not with the line.
	MessageLines bool
	// Header, when set, says that a file of the format opens with a header
	// line, which repair holds the file to (see Header).
	Header *Header
	// Parts, when set, names the content parts the format's messages hold
	// besides OpenAI's, and IDs where its raw records keep tool-call ids
	// besides "id" and tool_call_id (parts.go); nil: OpenAI's alone.
	Parts *PartKinds
	IDs   *IDMembers
	// rebuilds is set on the formats whose builder is recordBuilder: a
	// document it built with Fields is built again whole from the whole
	// record when asked (RebuildsWhole, Document.ForRego).
	rebuilds bool
}

// Header is what repair knows of a format whose files open with a header
// line: a file that lost its header, or whose header is broken, is left as
// it is rather than rewritten into a file no reader of the format takes.
type Header struct {
	// Valid reports whether rec, a first record the format detects, is a
	// whole header.
	Valid func(rec ast.Object) bool
	// Entry reports whether rec is a line only a file of the format holds
	// after its header: a file that starts with one lost its header.
	Entry func(rec ast.Object) bool
}

// EntryLayout describes the lines of a session format whose messages are
// entries, for fix to map actions onto.
type EntryLayout struct {
	// Message is the member of an entry holding its message.
	Message string
	// ID and Parent are the members linking an entry to the one before it
	// in the conversation ("" when entries are not linked).
	ID, Parent string
	// Order lists the members of an inserted entry, in order: Message
	// holds the message, ID a new id, Parent the link (set when the links are
	// mended), "type" Type's answer; any other member is copied from the
	// entry it is inserted after, when that one has it.
	Order []string
	// Type gives an inserted entry's type from its message's role.
	Type func(role string) string
}

// Unreadable returns what of rec the format's builder cannot read (see
// Adapter.Unread), "" when it reads it all.
func (a *Adapter) Unreadable(rec ast.Object) string {
	if a == nil || a.Unread == nil {
		return ""
	}
	return a.Unread(rec)
}

// claims reports whether detection takes a file for this format by rec: the
// format's members are there, and the builder reads them.
func (a *Adapter) claims(rec ast.Object) bool {
	return a.Detect(rec) && a.Unreadable(rec) == ""
}

// Misfit returns what rec lacks to be a record of the format, or "" when it
// fits.
func (a *Adapter) Misfit(rec ast.Object) string {
	if a.Fits != nil {
		return a.Fits(rec)
	}
	if a.Detect(rec) {
		return ""
	}
	return a.Shape
}

// registry lists the adapters in the order detection asks them: the most
// specific shapes first, since a contract or proxy-log record also holds
// messages.
//
// The batch formats come before chat, contract and proxy-log: a batch line
// wraps a request ({custom_id, body|params|response|result}) and never has
// messages at its top level, so each is told by custom_id plus its wrapper
// member. ShareGPT (conversations) and Gemini (contents, or request.contents)
// have no messages member either, so their order against chat does not
// matter; they come before it so that a record with both is read by its
// more specific member.
// Claude Code and Codex sessions are told by members no other format has
// (uuid/parentUuid/sessionId, {timestamp, type, payload}).
//
// Preference records (input and an output) and Bedrock conversation records
// (schemaVersion) are told by members a plain chat record lacks, so they come
// before chat. Instruction records (prompt and completion, or Alpaca's
// instruction and output) and text records ({"text"}) have no conversation
// member at all and come last, text the very last: a text member is the
// loosest test of all.
//
// The agent and framework formats (Gemini CLI, SWE-agent, mini-swe-agent,
// OpenHands, the Responses API and Agents SDK, LangChain, Cline) are told by
// members of their own and come before the generic chat shapes.
var registry = []*Adapter{piSessionAdapter, gooseSessionAdapter, claudeCodeAdapter, codexAdapter, geminiCLIAdapter, sweAgentAdapter, miniSWEAgentAdapter, openHandsAdapter, openAIResponsesAdapter, agentsRunStateAdapter, langChainAdapter, clineAdapter, openAIBatchInputAdapter, openAIBatchOutputAdapter, anthropicBatchAdapter,
	proxyLogAdapter, contractAdapter, geminiAdapter, shareGPTAdapter, xlamAdapter, preferenceAdapter, bedrockConversationAdapter, chatAdapter, instructionAdapter, textAdapter}

// Formats lists every input format, in detection order.
var Formats = func() []Format {
	out := make([]Format, len(registry))
	for i, a := range registry {
		out[i] = a.Format
	}
	return out
}()

// Adapters returns the registered adapters, in detection order.
func Adapters() []*Adapter { return registry }

// Lookup returns the adapter of a format, or nil.
func Lookup(f Format) *Adapter {
	for _, a := range registry {
		if a.Format == f {
			return a
		}
	}
	return nil
}

// aliases are former format names still accepted by --format, so a CI job
// written against an earlier release keeps working.
var aliases = map[string]Format{"agent-session": PiSession}

// ParseFormat accepts a format name or one of its former names.
func ParseFormat(s string) (Format, bool) {
	if f, ok := aliases[s]; ok {
		s = string(f)
	}
	if a := Lookup(Format(s)); a != nil {
		return a.Format, true
	}
	return "", false
}

// FormatNames lists the formats for messages and help: "a, b, c or d".
func FormatNames() string {
	names := make([]string, len(registry))
	for i, a := range registry {
		names[i] = string(a.Format)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// PerFile reports whether one document spans the whole file (a session)
// rather than one record.
func (f Format) PerFile() bool {
	a := Lookup(f)
	return a != nil && a.PerFile
}

// Detect names the format of a file from its first record that is a JSON
// object. ok is false when the record matches no format.
func Detect(rec ast.Object) (f Format, ok bool) {
	for _, a := range registry {
		if a.claims(rec) {
			return a.Format, true
		}
	}
	return "", false
}

// NewBuilder returns the Builder for a format; an unknown format is read as
// chat records.
func NewBuilder(f Format, file string, opts Options) Builder {
	if a := Lookup(f); a != nil {
		return a.NewBuilder(file, opts)
	}
	return chatAdapter.NewBuilder(file, opts)
}

// Keys lists a record's top-level keys, sorted, for messages about records
// that match no format.
func Keys(rec ast.Object) string {
	var keys []string
	rec.Foreach(func(k, _ *ast.Term) {
		if s, ok := k.Value.(ast.String); ok {
			keys = append(keys, string(s))
		}
	})
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "…")
	}
	return strings.Join(keys, ", ")
}
