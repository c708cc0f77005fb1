package jsonl

import (
	"bytes"
	"encoding/json"
)

// A line holding a JSON value other than an object ([1, 2], "x", 42) is a
// record of no format: check reports it, fix rejects it, and repair drops it
// like a line that is not JSON, so the three ask these two questions alike.

// IsObject reports whether data is one valid JSON value that is an object.
// Most lines start with '{' and cost one byte before the validation.
func IsObject(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

// NonObject reports whether data is one valid JSON value that is not an
// object, and what it is ("an array", "a string", ...).
func NonObject(data []byte) (string, bool) {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] == '{' || !json.Valid(t) {
		return "", false
	}
	switch t[0] {
	case '[':
		return "an array", true
	case '"':
		return "a string", true
	case 't', 'f':
		return "a boolean", true
	case 'n':
		return "null", true
	}
	return "a number", true
}
