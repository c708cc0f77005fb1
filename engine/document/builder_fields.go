package document

import "github.com/open-policy-agent/opa/v1/ast"

// prunedDocument is newDocument under Options.Fields: only the members some
// rule may read. Members Go code reads and no rule does (messages, tools,
// entries) are built on demand by d.rest.
func prunedDocument(d *Document, f *Fields, mode string, ms []message, tools, entries, raw *ast.Term) ast.Object {
	var kv [12][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyFormat, strTerm(string(d.Format)))
	if f.file {
		add(keyFile, strTerm(d.File))
	}
	if f.line {
		add(KeyLine, intTerm(d.Line))
	}
	if f.id {
		add(keyID, strTerm(d.ID))
	}
	if f.mode {
		add(KeyMode, strTerm(mode))
	}
	var messages *ast.Term
	if f.needsMessages() {
		if f.messages {
			messages = buildMessagesFields(ms, mode, f)
			add(KeyMessages, messages)
		} else { // the lookup only: the messages Go code may ask for are whole
			messages = buildMessages(ms, mode)
		}
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
		add(keyLookup, lookupTerm(ms, tools))
	}
	if f.model && d.model != nil {
		add(keyModel, d.model.term())
	}
	if !f.messages || !f.tools || !f.entries {
		d.rest = func() ast.Object {
			if messages == nil { // first normalized now: ms are as read
				messages = buildMessages(ms, mode)
			}
			return ast.NewObject([2]*ast.Term{KeyMessages, messages}, [2]*ast.Term{KeyTools, tools}, [2]*ast.Term{keyEntries, entries})
		}
	}
	return ast.NewObject(kv[:n]...)
}

// prunedMessage is a normalized message with the members f says no rule
// reads left out. index, line, path, lines and tool_calls stay: placing a
// finding reads them (Document.Locate).
func prunedMessage(m *message, i, turn int, calls, lineTerm *ast.Term, f *Fields) ast.Object {
	var kv [13][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyIndex, intTerm(i))
	if f.role {
		add(keyRole, orString(m.roleTerm, m.role))
	}
	if f.text {
		add(keyText, orString(m.textTerm, m.text))
	}
	if f.hasContent {
		add(keyHasContent, boolTerm(m.hasContent))
	}
	add(KeyToolCalls, calls)
	if f.turn {
		add(keyTurn, intTerm(turn))
	}
	add(KeyLine, lineTerm)
	add(KeyPath, m.pathTerm)
	if f.msgRaw {
		add(KeyRaw, m.raw)
	}
	if f.toolCallID && m.callID != nil {
		add(keyToolCallID, m.callID)
	}
	if f.stopReason && m.stopReason != nil {
		add(keyStopReason, m.stopReason)
	}
	if f.isError && m.isError != nil {
		add(keyIsError, m.isError)
	}
	if len(m.lines) > 1 {
		add(keyLines, linesTerm(m.lines))
	}
	return ast.NewObject(kv[:n]...)
}

// addPrunedCall is addCall with the members m.fields says no rule reads left
// out. index, id, path (and a line of its own) stay: placing a finding and
// pairing results read them.
func (m *message) addPrunedCall(id, name, args *ast.Term, hasInput bool, path *ast.Term, parseErr string) {
	f := m.fields
	var kv [7][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyIndex, intTerm(len(m.calls)))
	add(keyID, id)
	if f.callName {
		add(keyName, name)
	}
	if f.callHasInput {
		add(keyHasInput, boolTerm(hasInput))
	}
	add(KeyPath, path)
	if f.callArguments && args != nil {
		add(keyArguments, args)
	}
	if parseErr != "" {
		add(keyParseError, strTerm(parseErr))
	}
	m.calls = append(m.calls, ast.NewTerm(ast.NewObject(kv[:n]...)))
}
