package cmdutil

import (
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/report"
)

// Output is one path a command writes: a file, or with Dir a folder it
// writes files into. Flag names it in the error (-o json=, --write-baseline).
type Output struct {
	Flag string
	Path string
	Dir  bool
}

// RefuseInputs is the one check every command makes before it writes: no
// output may be an input of the run (by identity, links followed), and no
// output folder may be, hold or lie inside an input folder. inputs are the
// paths as named and the files found in folders. A refused output is a
// usage error (exit 2) and nothing is written; replacing an input is left
// to fix --in-place and repair, which keep a backup.
func RefuseInputs(inputs []string, outs ...Output) error {
	var in *atomicfile.Inputs
	for _, o := range outs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		if in == nil {
			in = atomicfile.NewInputs(inputs...)
		}
		err := in.CheckFile(o.Path)
		if o.Dir {
			err = in.CheckDir(o.Path)
		}
		if err != nil {
			return UsageError("%s: %s", o.Flag, report.EscapeControls(err.Error()))
		}
	}
	return nil
}
