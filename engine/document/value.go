package document

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Keys are built once: looking a member up or inserting one then costs no
// allocation, and the terms are shared by every document (never mutated).
var (
	keyArguments      = ast.StringTerm("arguments")
	keyBody           = ast.StringTerm("body")
	keyChoices        = ast.StringTerm("choices")
	keyContent        = ast.StringTerm("content")
	keyConvID         = ast.StringTerm("conversation_id")
	keyEntries        = ast.StringTerm("entries")
	keyFile           = ast.StringTerm("file")
	keyFunction       = ast.StringTerm("function")
	keyHasContent     = ast.StringTerm("has_content")
	keyHasInput       = ast.StringTerm("has_input")
	keyFreeForm       = ast.StringTerm("free_form")
	keyID             = ast.StringTerm("id")
	keyInput          = ast.StringTerm("input")
	keyIsError        = ast.StringTerm("is_error")
	keyIsErrorc       = ast.StringTerm("isError")
	keyMessage        = ast.StringTerm("message")
	keyMessageCount   = ast.StringTerm("message_count")
	keyName           = ast.StringTerm("name")
	keyParameters     = ast.StringTerm("parameters")
	keyParametersPath = ast.StringTerm("parameters_path")
	keyParseError     = ast.StringTerm("parse_error")
	keyProfile        = ast.StringTerm("profile")
	keyRequest        = ast.StringTerm("request")
	keyResponse       = ast.StringTerm("response")
	keyStatus         = ast.StringTerm("status")
	keyRole           = ast.StringTerm("role")
	keyRoles          = ast.StringTerm("roles")
	keySessionID      = ast.StringTerm("session_id")
	keyStopReason     = ast.StringTerm("stop_reason")
	keyStopReasonc    = ast.StringTerm("stopReason")
	keyText           = ast.StringTerm("text")
	keyTimestamp      = ast.StringTerm("timestamp")
	keyToolCallID     = ast.StringTerm("tool_call_id")
	keyToolCallIDc    = ast.StringTerm("toolCallId")
	keyToolUseID      = ast.StringTerm("toolUseId")
	keyToolUseIDs     = ast.StringTerm("tool_use_id")
	keyInputSchema    = ast.StringTerm("input_schema")
	keyLines          = ast.StringTerm("lines")
	keyTurn           = ast.StringTerm("turn")
	keyType           = ast.StringTerm("type")
	keyUserID         = ast.StringTerm("user_id")
	keyValid          = ast.StringTerm("valid")
	keyValue          = ast.StringTerm("value")
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
