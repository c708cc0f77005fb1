package runner

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/lint"
)

// uniqueKeys follows, for a per-record format whose adapter names a unique
// member (a batch line's custom_id), the line that first used each value.
// Records are checked apart on the workers; only the reader sees a file's
// records in order, so it is the reader that tells a record its value was
// taken (lint.Unit.Duplicate), and a rule decides what to report. Memory
// grows with the number of distinct values, not with their records.
type uniqueKeys struct {
	first map[string]int
}

// mark decodes the unit's record (handing it on as Unit.First, so the
// worker does not decode it again) and sets Unit.Duplicate when its value
// was used before. A record over max values (document.Options.MaxValues)
// is not built here: the worker reports it.
func (k *uniqueKeys) mark(u *lint.Unit, max int) {
	ad := document.Lookup(u.Format)
	if ad == nil || ad.UniqueKey == nil || ad.PerFile {
		return
	}
	rec := u.Records[0]
	obj := u.First
	if obj == nil {
		if !astjson.OpensObject(rec.Data) {
			return // the worker reports it
		}
		v, err := astjson.DecodeMax(rec.Data, max)
		o, ok := v.(ast.Object)
		if err != nil || !ok {
			return // the worker reports it
		}
		obj, u.First = o, o
	}
	member, value := ad.UniqueKey(obj)
	if value == "" {
		return
	}
	if k.first == nil {
		k.first = map[string]int{}
	}
	if line, seen := k.first[value]; seen {
		u.Duplicate = &lint.Duplicate{Member: member, Value: value, FirstLine: line}
		return
	}
	k.first[value] = rec.Line
}
