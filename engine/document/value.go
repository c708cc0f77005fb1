package document

import (
	"strconv"

	"github.com/chatlint/chatlint/engine/astjson"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Keys are built once: looking a member up or inserting one then costs no
// allocation, and the terms are shared by every document (never mutated).
var (
	keyArguments      = astjson.Key("arguments")
	keyBody           = astjson.Key("body")
	keyChoices        = astjson.Key("choices")
	keyContent        = astjson.Key("content")
	keyConvID         = astjson.Key("conversation_id")
	keyEntries        = astjson.Key("entries")
	keyFile           = astjson.Key("file")
	keyFunction       = astjson.Key("function")
	keyHasContent     = astjson.Key("has_content")
	keyHasInput       = astjson.Key("has_input")
	keyFreeForm       = astjson.Key("free_form")
	keyID             = astjson.Key("id")
	keyInput          = astjson.Key("input")
	keyIsError        = astjson.Key("is_error")
	keyIsErrorc       = astjson.Key("isError")
	keyMessage        = astjson.Key("message")
	keyMessageCount   = astjson.Key("message_count")
	keyName           = astjson.Key("name")
	keyParameters     = astjson.Key("parameters")
	keyParametersPath = astjson.Key("parameters_path")
	keyParseError     = astjson.Key("parse_error")
	keyProfile        = astjson.Key("profile")
	keyRequest        = astjson.Key("request")
	keyResponse       = astjson.Key("response")
	keyStatus         = astjson.Key("status")
	keyRole           = astjson.Key("role")
	keyRoles          = astjson.Key("roles")
	keySessionID      = astjson.Key("session_id")
	keyStopReason     = astjson.Key("stop_reason")
	keyStopReasonc    = astjson.Key("stopReason")
	keyText           = astjson.Key("text")
	keyTimestamp      = astjson.Key("timestamp")
	keyToolCallID     = astjson.Key("tool_call_id")
	keyToolCallIDc    = astjson.Key("toolCallId")
	keyToolUseID      = astjson.Key("toolUseId")
	keyToolUseIDs     = astjson.Key("tool_use_id")
	keyInputSchema    = astjson.Key("input_schema")
	keyLines          = astjson.Key("lines")
	keyTurn           = astjson.Key("turn")
	keyType           = astjson.Key("type")
	keyUserID         = astjson.Key("user_id")
	keyValid          = astjson.Key("valid")
	keyValue          = astjson.Key("value")
)

var emptyArray = ast.NewTerm(ast.NewArray())

func get(o ast.Object, k *ast.Term) *ast.Term {
	if o == nil {
		return nil
	}
	return o.Get(k)
}

func objectField(o ast.Object, k *ast.Term) ast.Object {
	if t := get(o, k); t != nil {
		v, _ := t.Value.(ast.Object)
		return v
	}
	return nil
}

func arrayField(o ast.Object, k *ast.Term) *ast.Array {
	if t := get(o, k); t != nil {
		v, _ := t.Value.(*ast.Array)
		return v
	}
	return nil
}

func stringField(o ast.Object, k *ast.Term) string {
	if t := get(o, k); t != nil {
		if s, ok := t.Value.(ast.String); ok {
			return string(s)
		}
	}
	return ""
}

// stringTerm returns member k of o when it is a string, else the empty string.
func stringTerm(o ast.Object, k *ast.Term) *ast.Term {
	if t := get(o, k); t != nil {
		if _, ok := t.Value.(ast.String); ok {
			return t
		}
	}
	return emptyString
}

func intField(o ast.Object, k *ast.Term) int {
	if t := get(o, k); t != nil {
		if n, ok := t.Value.(ast.Number); ok {
			i, _ := n.Int()
			return i
		}
	}
	return 0
}

func boolTerm(b bool) *ast.Term { return ast.InternedTerm(b) }

func strTerm(s string) *ast.Term {
	if s == "" {
		return emptyString
	}
	return ast.StringTerm(s)
}

var emptyString = ast.StringTerm("")

func pointerIndex(base string, i int) string { return base + "/" + strconv.Itoa(i) }
