package document

import "github.com/chatlint/chatlint/engine/astjson"

// The normalized document's own field names, shared with the policy engine
// so that Go code reading a document (the YAML rule evaluator, the tools
// memo) and the code building it cannot drift apart. Terms are built once and
// never mutated.
var (
	KeyFormat       = astjson.Key("format")
	KeyFunctionPath = astjson.Key("function_path")
	KeyIndex        = astjson.Key("index")
	KeyLine         = astjson.Key("line")
	KeyMessages     = astjson.Key("messages")
	KeyMode         = astjson.Key("mode")
	KeyPath         = astjson.Key("path")
	KeyRaw          = astjson.Key("raw")
	KeyToolCalls    = astjson.Key("tool_calls")
	KeyTools        = astjson.Key("tools")
)
