package document

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// ClaudeCode is a Claude Code session file: one entry per line, linked into
// a tree by uuid and parentUuid.
const ClaudeCode Format = "claude-code"

var claudeCodeAdapter = &Adapter{
	Format:     ClaudeCode,
	Summary:    `a Claude Code session: one entry per line ({"type": "user"|"assistant"|"system"|"summary"|…, "uuid", "parentUuid", "sessionId", "message"}), linked by parentUuid`,
	PerFile:    true,
	RepeatsIDs: true,
	Detect:     isClaudeCodeEntry,
	Shape:      `a Claude Code entry ({"type": "user", "uuid", "parentUuid", "sessionId", "message"}, or a summary or file-history-snapshot entry) as its first line`,
	NewBuilder: func(file string, opts Options) Builder { return &claudeCode{file: file, opts: opts} },
	// Sent to an API that rejects a tool-call id used twice: openai-tools
	// first renames reused ids (with their results) and moves stray results
	// back, then transcript pairs results in call order and synthesises the
	// missing ones.
	Cleanup: []string{"openai-tools", "transcript"},
	Entries: &EntryLayout{
		Message: "message", ID: "uuid", Parent: "parentUuid",
		Order: []string{"parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch", "type", "message", "uuid", "timestamp"},
		Type:  func(role string) string { return role },
	},
	// Every entry's raw but the members no rule reads.
	Reads: claudeCodeReads,
	// Anthropic's content blocks.
	Parts: anthropicParts,
	IDs:   anthropicIDs,
}

var (
	keySessionIDc    = ast.StringTerm("sessionId")
	keyUUID          = ast.StringTerm("uuid")
	keyParentUUID    = ast.StringTerm("parentUuid")
	keyLogicalParent = ast.StringTerm("logicalParentUuid")
	keyIsSidechain   = ast.StringTerm("isSidechain")
	keyLeafUUID      = ast.StringTerm("leafUuid")
	keySnapshot      = ast.StringTerm("snapshot")
	keyMessageID     = ast.StringTerm("messageId")
	keyOperation     = ast.StringTerm("operation")
	keyParentUUIDn   = ast.StringTerm("parent_uuid")
	keyIsSidechainN  = ast.StringTerm("is_sidechain")
	keyMessageIDn    = ast.StringTerm("message_id")
	keyOnChain       = ast.StringTerm("on_chain")
)

// isClaudeCodeEntry recognizes the entries a Claude Code session starts
// with: a conversation entry (user, assistant, system, progress) with its
// uuid and sessionId, a summary with its leafUuid, a file-history snapshot
// or a queue operation.
func isClaudeCodeEntry(rec ast.Object) bool {
	switch stringField(rec, keyType) {
	case "user", "assistant", "system", "progress", "attachment":
		return get(rec, keyUUID) != nil && get(rec, keySessionIDc) != nil && get(rec, keyParentUUID) != nil
	case "summary":
		return get(rec, keyLeafUUID) != nil
	case "file-history-snapshot":
		return get(rec, keySnapshot) != nil || get(rec, keyMessageID) != nil
	case "queue-operation":
		return get(rec, keyOperation) != nil && get(rec, keySessionIDc) != nil
	}
	return false
}

// ccEntry is one line of a Claude Code session.
type ccEntry struct {
	line    int
	obj     ast.Object
	typ     string
	uuid    string
	parent  string // parentUuid when a non-empty string
	logical string // logicalParentUuid (a compaction boundary's link across the cut)
	side    bool
	msg     ast.Object // message, when an object
	msgID   string     // message.id
	onChain bool
}

// conversational reports whether the entry belongs to the conversation's
// chain of turns (progress lines hang off it as leaves).
func (e *ccEntry) conversational() bool {
	return e.uuid != "" && (e.typ == "user" || e.typ == "assistant" || e.typ == "system")
}

// claudeCode gathers a session file; Finish orders the conversation by the
// parentUuid links.
type claudeCode struct {
	file    string
	opts    Options
	entries []*ccEntry
}

func (s *claudeCode) Add(line int, rec ast.Object) *Document {
	e := &ccEntry{line: line, obj: rec, typ: stringField(rec, keyType), uuid: stringField(rec, keyUUID),
		parent: stringField(rec, keyParentUUID), logical: stringField(rec, keyLogicalParent)}
	if t := get(rec, keyIsSidechain); t != nil {
		b, _ := t.Value.(ast.Boolean)
		e.side = bool(b)
	}
	if e.typ == "user" || e.typ == "assistant" {
		e.msg = objectField(rec, keyMessage)
		e.msgID = stringField(e.msg, keyID)
	}
	s.entries = append(s.entries, e)
	return nil
}

// chain returns the entries of the conversation Claude Code would resume,
// root first: the path from the last message entry (of the main thread, or
// of the sidechain in a subagent's file) up its parentUuid links. Where the
// path reaches an entry without a parent it goes on across the cut: to the
// logicalParentUuid of a compaction boundary, else to the latest earlier
// conversational entry not on it (files whose entries carry no links, and
// chains cut by a missing parent, are read in file order there; the
// claude-code pack reports the cut). Entries off the path — sidechains,
// abandoned branches, progress leaves — are not in it.
func (s *claudeCode) chain() []*ccEntry {
	side := true
	for _, e := range s.entries {
		if e.msg != nil && !e.side {
			side = false
			break
		}
	}
	byUUID := map[string]int{}
	for i, e := range s.entries {
		if _, dup := byUUID[e.uuid]; e.uuid != "" && !dup && e.side == side {
			byUUID[e.uuid] = i
		}
	}
	leaf := -1
	for i := len(s.entries) - 1; i >= 0; i-- {
		if e := s.entries[i]; e.msg != nil && e.side == side && e.uuid != "" {
			leaf = i
			break
		}
	}
	if leaf < 0 {
		return nil
	}
	seen := make([]bool, len(s.entries))
	var path []int
	for i := leaf; i >= 0 && !seen[i]; {
		seen[i] = true
		path = append(path, i)
		e := s.entries[i]
		if p, ok := byUUID[e.parent]; ok && !seen[p] {
			i = p
			continue
		}
		if p, ok := byUUID[e.logical]; ok && !seen[p] {
			i = p
			continue
		}
		i = -1
		for j := path[len(path)-1] - 1; j >= 0; j-- {
			if c := s.entries[j]; c.conversational() && c.side == side && !seen[j] {
				i = j
				break
			}
		}
	}
	slices.Reverse(path)
	return s.withResults(path, seen, side)
}

// withResults adds to the path what hangs off it: Claude Code parents the
// result of each of several parallel calls on the line of its own call, and
// only the last result on the path, so the other results are leaves beside
// it; and when the results were stored out of order, the last call lines
// (the same API message, message.id, as their parent) are off the path too.
// They join the conversation where the file has them (after the entry of the
// path written before them), so results stored out of order stay out of
// order for the rules to see.
func (s *claudeCode) withResults(path []int, onPath []bool, side bool) []*ccEntry {
	in := map[string]int{} // uuid -> entry index, of the path and what joins it
	monotone := true
	for k, i := range path {
		in[s.entries[i].uuid] = i
		if k > 0 && i < path[k-1] {
			monotone = false
		}
	}
	var added []int
	for i, e := range s.entries {
		if onPath[i] || e.side != side || e.uuid == "" {
			continue
		}
		p, ok := in[e.parent]
		if !ok {
			continue
		}
		sameMessage := e.typ == "assistant" && e.msgID != "" && e.msgID == s.entries[p].msgID
		result := e.typ == "user" && holdsToolResult(e.msg)
		if sameMessage || result {
			if _, dup := in[e.uuid]; !dup {
				in[e.uuid] = i
			}
			added = append(added, i)
		}
	}
	all := path
	if len(added) > 0 {
		if monotone {
			all = append(slices.Clone(path), added...)
			slices.Sort(all)
		} else {
			// A path that goes back in the file: what hangs off an entry
			// follows it.
			byParent := map[string][]int{}
			for _, i := range added {
				byParent[s.entries[i].parent] = append(byParent[s.entries[i].parent], i)
			}
			all = nil
			var emit func(i, depth int)
			emit = func(i, depth int) {
				all = append(all, i)
				if depth > len(added) {
					return
				}
				for _, c := range byParent[s.entries[i].uuid] {
					emit(c, depth+1)
				}
			}
			for _, i := range path {
				emit(i, 0)
			}
		}
	}
	out := make([]*ccEntry, len(all))
	for k, i := range all {
		out[k] = s.entries[i]
	}
	return out
}

// holdsToolResult reports whether a message's content has a tool_result block.
func holdsToolResult(msg ast.Object) bool {
	parts := arrayField(msg, keyContent)
	return parts != nil && hasToolResult(parts)
}

func (s *claudeCode) Finish() *Document {
	if len(s.entries) == 0 {
		return nil
	}
	first := s.entries[0].line
	d := newDoc(ClaudeCode, s.file, first, "", s.opts)
	for _, e := range s.entries {
		if id := stringField(e.obj, keySessionIDc); id != "" {
			d.ID = id
			break
		}
	}
	if d.ID == "" {
		d.ID = fallbackID(s.file, first)
	}
	ms := s.messages(s.chain())
	entries := make([]*ast.Term, len(s.entries))
	ints := &intTerms{}
	for i, e := range s.entries {
		entries[i] = s.entryTerm(i, e, ints)
	}
	mode := modeStructured
	if s.opts.ToolCalls != "" {
		mode = s.opts.ToolCalls
	}
	// The first line may have been decoded whole, to detect the format: the
	// last one says how the check decodes them.
	_, views := s.entries[len(s.entries)-1].obj.(*astjson.ObjectView)
	if views {
		// The lines were decoded as views (claudeCodeReads): no rule that
		// topdown evaluates reads the document, so its messages are
		// MessageValues too, each with every member (the document is
		// whole), and Materialized builds them, the entries and the lines
		// for any other reader.
		d.fields = everyMember
	}
	d.Value = newDocument(d, mode, ms, emptyArray, ast.ArrayTerm(entries...), ast.NullTerm())
	d.fields, d.views = nil, views
	return d
}

// messages normalizes the messages of the chain: the lines of one
// assistant API message (Claude Code writes each content block on a line
// of its own, sharing message.id) make one assistant message; a user
// entry's tool_result blocks become tool messages (see anthropic.go).
func (s *claudeCode) messages(chain []*ccEntry) []message {
	var ms []message
	var open []*ccEntry // the lines of the assistant message being gathered
	flush := func() {
		if len(open) > 0 {
			ms = append(ms, s.assistant(open))
			open = nil
		}
	}
	for _, e := range chain {
		e.onChain = true
		if e.msg == nil {
			continue
		}
		if e.typ == "assistant" {
			if len(open) > 0 && (e.msgID == "" || e.msgID != open[0].msgID) {
				flush()
			}
			open = append(open, e)
			continue
		}
		flush()
		ms = appendMessages(ms, get(e.obj, keyMessage), e.line, messageKeyPath, -1)
	}
	flush()
	return ms
}

// assistant builds one assistant message from its lines. Its raw is the
// first line's message with the content blocks of every line, in order;
// each call keeps the line and pointer of its own block.
func (s *claudeCode) assistant(lines []*ccEntry) message {
	if len(lines) == 1 {
		return readMessage(get(lines[0].obj, keyMessage), lines[0].line, messageKeyPath, -1)
	}
	var blocks []*ast.Term
	for _, e := range lines {
		if parts := arrayField(e.msg, keyContent); parts != nil {
			parts.Foreach(func(b *ast.Term) { blocks = append(blocks, b) })
		}
	}
	// The first line's members, shared rather than copied (a long session
	// has thousands of such messages), with the content and stop reason of
	// all the lines.
	raw := withMembers(lines[0].msg, [2]*ast.Term{keyContent, ast.ArrayTerm(blocks...)},
		[2]*ast.Term{keyStopReason, get(lines[len(lines)-1].msg, keyStopReason)})
	m := readMessage(ast.NewTerm(raw), lines[0].line, messageKeyPath, -1)
	m.ownCalls = true
	for _, e := range lines {
		m.lines = append(m.lines, e.line)
		parts := arrayField(e.msg, keyContent)
		for j := 0; parts != nil && j < parts.Len(); j++ {
			b, ok := parts.Elem(j).Value.(ast.Object)
			if !ok || !callBlockTypes[stringField(b, keyType)] {
				continue
			}
			args, hasInput := callInput(b)
			m.addCallAt(e.line, stringTerm(b, keyID), stringTerm(b, keyName), args, hasInput, strTerm(pointerIndex("/message/content", j)))
		}
	}
	return m
}

// entryTerm is entry i's object, with the members a rule may read
// (Options.Fields): a long session has one per line, so it is made in one
// allocation, and its index and line share the terms of ints.
func (s *claudeCode) entryTerm(i int, e *ccEntry, ints *intTerms) *ast.Term {
	var kvs [11][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) {
		kvs[n] = [2]*ast.Term{k, v}
		n++
	}
	f := s.opts.Fields
	add(KeyIndex, ints.of(i))
	add(KeyLine, ints.of(e.line))
	add(keyType, strTerm(e.typ))
	for _, kv := range [...][2]*ast.Term{{keyUUID, keyUUID}, {keyParentUUID, keyParentUUIDn}, {keyIsSidechain, keyIsSidechainN},
		{keySessionIDc, keySessionID}, {keyTimestamp, keyTimestamp}} {
		if !f.readsEntry(kv[1]) {
			continue
		}
		if t := get(e.obj, kv[0]); t != nil {
			add(kv[1], t)
		}
	}
	if e.msgID != "" && f.readsEntry(keyMessageIDn) {
		add(keyMessageIDn, strTerm(e.msgID))
	}
	add(keyOnChain, boolTerm(e.onChain))
	if f.readsEntry(KeyRaw) {
		add(KeyRaw, ast.NewTerm(e.obj))
	}
	if _, view := e.obj.(*astjson.ObjectView); view {
		// The line was decoded as a view (claudeCodeReads): so is its
		// entry, which Document.Materialized builds with the line.
		return ast.NewTerm(astjson.NewObjectView(kvs[:n]...))
	}
	return ast.NewTerm(ast.NewObject(kvs[:n]...))
}

// intTerms shares the terms of the numbers a session's entries carry: an
// entry's line is, in a file without blank lines, the next entry's index.
type intTerms struct{ terms []*ast.Term }

func (t *intTerms) of(i int) *ast.Term {
	if i < 0 || i > 1<<24 {
		return intTerm(i)
	}
	if i >= len(t.terms) {
		t.terms = append(t.terms, make([]*ast.Term, i+1-len(t.terms)+len(t.terms)/2)...)
	}
	if t.terms[i] == nil {
		t.terms[i] = intTerm(i)
	}
	return t.terms[i]
}

// withMembers is o with the members kvs set, in o's order (a member o lacks
// goes last; a nil value leaves o's member as it is): the object
// o.Copy() then Insert would make, sharing o's terms instead of copying them.
// A view gives a view of the same members, its object built only when a
// reader needs it.
func withMembers(o ast.Object, kvs ...[2]*ast.Term) ast.Object {
	out := make([][2]*ast.Term, 0, o.Len()+len(kvs))
	set := make([]bool, len(kvs))
	each := o.Foreach
	view, _ := o.(*astjson.ObjectView)
	if view != nil {
		each = view.ForeachMember
	}
	each(func(k, v *ast.Term) {
		for i, kv := range kvs {
			if kv[1] != nil && k.Equal(kv[0]) {
				v, set[i] = kv[1], true
			}
		}
		out = append(out, [2]*ast.Term{k, v})
	})
	for i, kv := range kvs {
		if kv[1] != nil && !set[i] {
			out = append(out, kv)
		}
	}
	if view != nil {
		return astjson.NewObjectView(out...)
	}
	return ast.NewObject(out...)
}
