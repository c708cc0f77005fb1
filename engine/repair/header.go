package repair

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// probeRecords is how many records after the first headerOK looks at to
// recognize a file whose first record is not a header.
const probeRecords = 8

// headerOK reports whether first, the first record kept from a file, is
// acceptable: either the file is of no format whose files open with a
// header (document.Adapter.Header), or first is a whole header of its
// format. With a forced format (Options.Format) the file is of that format.
// Otherwise it is of a header format when first is detected as one, or is a
// line only such a file has after its header, or when first is of no known
// format, or no object, and one of next (the records after it, at most
// probeRecords) is such a line or a header: a pi transcript's header damaged
// into {"type": "Session", …}, or preceded by the JSON string "session", is
// not a header first, and the transcript repair this replaces refuses such a
// file ("invalid session header") rather than repairing it as plain JSONL.
func headerOK(first []byte, next [][]byte, forced document.Format) bool {
	if forced != "" {
		a := document.Lookup(forced)
		if a == nil || a.Header == nil {
			return true
		}
		obj, ok := object(first)
		return ok && a.Detect(obj) && a.Header.Valid(obj)
	}
	obj, isObj := object(first)
	if isObj {
		f, known := document.Detect(obj)
		if a := document.Lookup(f); known && a.Header != nil {
			return a.Header.Valid(obj)
		}
		if afterHeader(obj) {
			return false
		}
		if known {
			return true
		}
	}
	// A first record of no known format, or no object at all (the JSON
	// string "session" before a pi header): the file is a transcript whose
	// first record is not its header when a header or a header-only entry
	// follows.
	for _, rec := range next {
		if o, ok := object(rec); ok && (afterHeader(o) || isHeader(o)) {
			return false
		}
	}
	return true
}

// isHeader reports whether obj is detected as a record of a format whose
// files open with a header: a header that is not the first record.
func isHeader(obj ast.Object) bool {
	f, known := document.Detect(obj)
	a := document.Lookup(f)
	return known && a.Header != nil
}

func object(data []byte) (ast.Object, bool) {
	v, err := astjson.Decode(data)
	if err != nil {
		return nil, false
	}
	obj, ok := v.(ast.Object)
	return obj, ok
}

// afterHeader reports whether obj is a line that only a file of a header
// format holds after its header.
func afterHeader(obj ast.Object) bool {
	for _, a := range document.Adapters() {
		if a.Header != nil && a.Header.Entry(obj) {
			return true
		}
	}
	return false
}
