package document

import "github.com/open-policy-agent/opa/v1/ast"

// The normalized document's own field names, shared with the policy engine
// so that Go code reading a document (the YAML rule evaluator, the tools
// memo) and the code building it cannot drift apart. Terms are built once and
// never mutated.
var (
	KeyFormat       = ast.StringTerm("format")
	KeyFunctionPath = ast.StringTerm("function_path")
	KeyIndex        = ast.StringTerm("index")
	KeyLine         = ast.StringTerm("line")
	KeyMessages     = ast.StringTerm("messages")
	KeyMode         = ast.StringTerm("mode")
	KeyPath         = ast.StringTerm("path")
	KeyRaw          = ast.StringTerm("raw")
	KeyToolCalls    = ast.StringTerm("tool_calls")
	KeyTools        = ast.StringTerm("tools")
)
