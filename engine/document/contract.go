package document

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// contractAdapter reads exported conversation records, one per line:
// {"conversation_id", "user_id", "timestamp", "messages", "metadata"}. They
// normalize as chat records do; the id is conversation_id.
var contractAdapter = &Adapter{
	Format:  Contract,
	Summary: `exported conversation records: {"conversation_id", "user_id", "timestamp", "messages", "metadata"}`,
	Detect: func(rec ast.Object) bool {
		return get(rec, keyConvID) != nil || get(rec, keyUserID) != nil
	},
	Fits: func(rec ast.Object) string {
		var missing []string
		if get(rec, keyConvID) == nil && get(rec, keyUserID) == nil {
			missing = append(missing, "a conversation_id or user_id member")
		}
		if get(rec, KeyMessages) == nil {
			missing = append(missing, "a messages member")
		}
		return strings.Join(missing, " and ")
	},
	NewBuilder: func(file string, opts Options) Builder {
		return recordBuilder{format: Contract, file: file, opts: opts}
	},
}
