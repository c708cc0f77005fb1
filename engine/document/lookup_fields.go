package document

import "github.com/open-policy-agent/opa/v1/ast"

// The lookup indexes the calls and results of every document (lookupTerm):
// sets of pairs, of ids and of names, each hashed as it is built. Where a
// pruned document's rules read only its cheap members (the openai
// profile's gate reads the message keys and the assistant messages, while
// the Rego it guards reads the document built whole, Document.ForRego), the
// builder makes those alone and leaves out what no rule reads.

// lookupSet is a set of the lookup's members, a bit each (lookupMembers).
type lookupSet uint16

// lookupMembers are the lookup's members, [i] bit 1<<i of a lookupSet.
var lookupMembers = [...]*ast.Term{
	keyAssistant, keyTool, keyCalls, keyCallIDs, keyCallNames, keyResults,
	keyCallLists, keyRoleSet, keyToolNames, keyMsgKeys, keyOddText,
}

const (
	lkAssistant lookupSet = 1 << iota
	lkTool
	lkCalls
	lkCallIDs
	lkCallNames
	lkResults
	lkCallLists
	lkRoles
	lkToolNames
	lkMsgKeys
	lkOddText
)

// lookupUnread are the lookup's members reads says no rule reads.
func lookupUnread(reads func(path ...string) bool) lookupSet {
	var s lookupSet
	for i, k := range lookupMembers {
		if !reads("lookup", string(k.Value.(ast.String))) {
			s |= 1 << i
		}
	}
	return s
}
