package document

import "github.com/open-policy-agent/opa/v1/ast"

// contractAdapter reads exported conversation records, one per line:
// {"conversation_id", "user_id", "timestamp", "messages", "metadata"}. They
// normalize as chat records do; the id is conversation_id.
var contractAdapter = &Adapter{
	Format:  Contract,
	Summary: `exported conversation records: {"conversation_id", "user_id", "timestamp", "messages", "metadata"}`,
	// Detection claims a record by an id that is a string, or by either id
	// beside a messages list: other shapes carry a conversation_id that is
	// null (an OpenAI Agents SDK RunState) and no messages.
	Detect: func(rec ast.Object) bool {
		if isString(get(rec, keyConvID)) || isString(get(rec, keyUserID)) {
			return true
		}
		return (get(rec, keyConvID) != nil || get(rec, keyUserID) != nil) && arrayField(rec, KeyMessages) != nil
	},
	// A record with either id is a contract record; what else it lacks is
	// the contract pack's to say, field by field.
	Fits: func(rec ast.Object) string {
		if get(rec, keyConvID) != nil || get(rec, keyUserID) != nil {
			return ""
		}
		return "a conversation_id or user_id member"
	},
	Shape:  "a conversation_id or user_id member",
	Unread: chatUnread,
	// Its messages are OpenAI's {role, content}: the tool-message rules.
	Cleanup: []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder {
		return recordBuilder{format: Contract, file: file, opts: opts}
	},
	Reads:    chatReads, // the same builder as chat's
	rebuilds: true,
	// A conversation_id names one conversation in a file: the contract's
	// dataset rule reports the records that repeat one.
	DatasetKeyMember: "conversation_id",
	DatasetKey: func(rec ast.Object) (string, string) {
		if t := get(rec, keyConvID); t != nil {
			if id, ok := t.Value.(ast.String); ok {
				return "conversation_id", string(id)
			}
		}
		return "", ""
	},
}

// isString reports whether t is a string.
func isString(t *ast.Term) bool {
	if t == nil {
		return false
	}
	_, ok := t.Value.(ast.String)
	return ok
}
