package lint

import (
	"fmt"

	"github.com/chatlint/chatlint/engine/document"
)

// buildRecovered calls build (a builder's Add or Finish) with a panic in it
// turned into an error: a bug in a format's adapter, met on a record of a
// shape it did not expect, is that record's or session's policy-error, with
// file and line, and the run goes on with the next one instead of the whole
// process dying on it.
func buildRecovered(build func() *document.Document) (d *document.Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("internal error building the document: %v; it was not checked", r)
		}
	}()
	return build(), nil
}
