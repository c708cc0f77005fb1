package convert

import (
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

// outputs spools records per group (date or scenario) to temporary files in
// the output folder, unlinked as soon as they are made, so memory does not
// grow with the number of sessions; the dataset files are written from them
// only when the run succeeds.
type outputs struct {
	dir     string
	spools  map[string]*os.File
	counts  map[string]int
	order   []string // groups in order of their first record
	records int
}

func newOutputs(dir string) (*outputs, error) {
	return &outputs{dir: dir, spools: map[string]*os.File{}, counts: map[string]int{}}, nil
}

func (o *outputs) add(group string, line []byte) error {
	f := o.spools[group]
	if f == nil {
		var err error
		if f, err = os.CreateTemp(o.dir, atomicfile.TempPattern("chatlint-convert")); err != nil {
			return err
		}
		// Unlinked at once: the run reads it through f, and a run killed
		// at any moment leaves nothing behind (leftovers piled up in the
		// output folder, one per group of every killed run). Where an open
		// file cannot be removed (Windows) it is removed by discard, and
		// its name is the one atomicfile's stale sweep knows.
		os.Remove(f.Name())
		o.spools[group] = f
		o.order = append(o.order, group)
	}
	if _, err := f.Write(line); err != nil {
		return err
	}
	o.counts[group]++
	o.records++
	return nil
}

// writeAll writes every record to one file: groups in order of their first
// record, records in discovery order within a group.
func (o *outputs) writeAll(path string) error {
	return writeFile(path, func(w io.Writer) error {
		for _, g := range o.order {
			if err := o.copy(w, g); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeGroups writes one file per group, in sorted order, and returns how
// many files it wrote. Scenario names are made safe as file names; two
// scenarios that end up with the same name write the same file, the later
// one replacing the earlier, as the reference does.
func (o *outputs) writeGroups(dir string, scenario bool) (int, error) {
	groups := slices.Clone(o.order)
	slices.Sort(groups)
	for _, g := range groups {
		name := g
		if scenario {
			name = outputName(g)
		}
		if err := writeFile(filepath.Join(dir, name+".jsonl"), func(w io.Writer) error { return o.copy(w, g) }); err != nil {
			return 0, err
		}
	}
	return len(groups), nil
}

func (o *outputs) copy(w io.Writer, group string) error {
	f := o.spools[group]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, f)
	return err
}

// discard removes the spool files.
func (o *outputs) discard() {
	for _, f := range o.spools {
		f.Close()
		os.Remove(f.Name())
	}
}

// writeFile replaces path atomically (a new file gets mode 0644).
func writeFile(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, 0o644, write)
}
