package lint

import (
	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// projection is what Documents decodes of each record of u: only what the
// format's builder reads under opts (document.Projection), or nil, the
// whole record. A forced format is checked to fit against the whole record
// (Adapter.Misfit reads members the builder may not), so it decodes whole.
func projection(u Unit, opts document.Options) *astjson.Projection {
	if u.Forced {
		return nil
	}
	return document.Projection(u.Format, opts)
}
