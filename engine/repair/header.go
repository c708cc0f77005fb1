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
// format and one of next (the records after it, at most probeRecords) is
// such a line: a pi transcript's header damaged into
// {"type": "Session", …} is still a header, and the transcript repair this
// replaces refuses such a file rather than repairing it as plain JSONL.
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
	if !isObj {
		return true
	}
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
	for _, rec := range next {
		if o, ok := object(rec); ok && afterHeader(o) {
			return false
		}
	}
	return true
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
