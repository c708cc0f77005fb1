package fix

import (
	"path/filepath"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// checkOutputs refuses, before anything is written, a -o run whose outputs
// would lose data: an output (or its rejects file) that is an input, and
// two inputs written to one output (-o DIR/ maps ../x.jsonl and
// __/x.jsonl, or /a/x.jsonl and a/x.jsonl, to the same place: the second
// replaced the first). names are the inputs in order, outputs their
// destinations.
func checkOutputs(paths, names []string, outputs map[string]string) error {
	by := map[string]string{}
	var outs []cmdutil.Output
	for _, n := range names {
		dest, ok := outputs[n]
		if !ok {
			continue
		}
		key := filepath.Clean(dest)
		if first, ok := by[key]; ok {
			return cmdutil.UsageError("-o: %s and %s would both be written to %s; fix them in separate runs or to separate folders", first, n, dest)
		}
		by[key] = n
		outs = append(outs, cmdutil.Output{Flag: "-o", Path: dest}, cmdutil.Output{Flag: "-o", Path: dest + jsonl.RejectsSuffix})
	}
	return cmdutil.RefuseInputs(append(paths, names...), outs...)
}
