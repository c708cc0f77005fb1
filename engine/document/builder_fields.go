package document

import (
	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/open-policy-agent/opa/v1/ast"
)

// prunedDocument is newDocument under Options.Fields: only the members some
// rule may read. Go code reads the whole document instead (d.whole, which
// the caller sets).
func prunedDocument(d *Document, f *Fields, mode string, ms []message, tools, entries, raw *ast.Term) ast.Object {
	var kv [12][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyFormat, nameTerm(string(d.Format)))
	if f.file {
		add(keyFile, fileTerm(d.File))
	}
	if f.line {
		add(KeyLine, intTerm(d.Line))
	}
	if f.id {
		add(keyID, strTerm(d.ID))
	}
	if f.mode {
		add(KeyMode, nameTerm(mode))
	}
	if f.messages {
		add(KeyMessages, buildMessagesFields(ms, mode, f))
		d.views = !f.plainMessages
	} else if f.lookup { // the lookup is built from normalized messages
		buildMessages(ms, mode)
	}
	if f.tools {
		add(KeyTools, tools)
	}
	if f.entries {
		add(keyEntries, entries)
	}
	if f.raw {
		add(KeyRaw, raw)
	}
	if f.profile {
		add(keyProfile, profileTerm(d.Profile))
	}
	if f.lookup && !d.skipLookup {
		add(keyLookup, lookupTermOf(ms, tools, f.lookupUnread))
	}
	if f.model && d.model != nil {
		add(keyModel, d.model.term())
	}
	return ast.NewObject(kv[:n]...)
}

// prunedMessage is a normalized message with the members f says no rule
// reads left out, as an OPA object.
func prunedMessage(m *message, i, turn int, calls, lineTerm *ast.Term, f *Fields) ast.Object {
	var s [msgSlots]*ast.Term
	prunedSlots(&s, m, i, turn, calls, lineTerm, f)
	return slotsObject(&s)
}

// prunedSlots fills the slots s of a view with the members of prunedMessage
// (message_value.go).
func prunedSlots(s *[msgSlots]*ast.Term, m *message, i, turn int, calls, lineTerm *ast.Term, f *Fields) {
	if f.msgIndex {
		s[slotIndex] = intTerm(i)
	}
	if f.role {
		s[slotRole] = orString(m.roleTerm, m.role)
	}
	if f.text {
		s[slotText] = orString(m.textTerm, m.text)
	}
	if f.hasContent {
		s[slotHasContent] = boolTerm(m.hasContent)
	}
	if f.toolCalls {
		s[slotToolCalls] = calls
	}
	if f.turn {
		s[slotTurn] = intTerm(turn)
	}
	if f.msgLine {
		s[slotLine] = lineTerm
	}
	if f.msgPath {
		s[slotPath] = m.pathTerm
	}
	if f.msgRaw {
		s[slotRaw] = m.raw
	}
	if f.toolCallID && m.callID != nil {
		s[slotToolCallID] = m.callID
	}
	if f.stopReason && m.stopReason != nil {
		s[slotStopReason] = m.stopReason
	}
	if f.isError && m.isError != nil {
		s[slotIsError] = m.isError
	}
	if f.msgLines && len(m.lines) > 1 {
		s[slotLines] = linesTerm(m.lines)
	}
}

// addPrunedCall is addCall with the members m.fields says no rule reads
// left out.
func (m *message) addPrunedCall(id, name, args *ast.Term, hasInput bool, path *ast.Term, parseErr string, more ...[2]*ast.Term) {
	f := m.fields
	var kv [9][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	if f.callIndex {
		add(KeyIndex, intTerm(len(m.calls)))
	}
	if f.callID {
		add(keyID, id)
	}
	if f.callName {
		add(keyName, name)
	}
	if f.callHasInput {
		add(keyHasInput, boolTerm(hasInput))
	}
	if f.callPath {
		add(KeyPath, path)
	}
	if f.callArguments && args != nil {
		add(keyArguments, args)
	}
	if parseErr != "" {
		add(keyParseError, strTerm(parseErr))
	}
	n += copy(kv[n:], more)
	if m.callViews {
		m.calls = append(m.calls, ast.NewTerm(astjson.NewObjectView(kv[:n]...)))
		return
	}
	m.calls = append(m.calls, ast.NewTerm(ast.NewObject(kv[:n]...)))
}
