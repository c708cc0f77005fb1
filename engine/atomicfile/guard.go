package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Inputs are the files and folders a run reads, by identity (device and
// inode, os.SameFile), so that no output of the run is written over one: a
// report, a baseline or a converted dataset named like an input used to
// replace it with no backup. Names are not enough: a relative and an
// absolute path, a symbolic link or a hard link name one file differently.
//
// Replacing an input is what `fix --in-place` and `repair` are for; every
// other output is checked here first.
type Inputs struct {
	files []ident
	dirs  []ident
	// byKey indexes files and dirs by device and inode where the system
	// gives them (fileKey), so that checking each output of a run over
	// many inputs (fix -o DIR/) is not a scan of every input.
	byKey map[fileID]ident
}

type ident struct {
	name string
	fi   os.FileInfo
}

// NewInputs takes the identity of each path (a file or a folder; "-" and
// paths that cannot be read are skipped: nothing can be written over them).
// Give the paths as named on the command line and the files found in its
// folders.
func NewInputs(paths ...string) *Inputs {
	in := &Inputs{}
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		id := ident{p, fi}
		if k, ok := fileKey(fi); ok {
			if in.byKey == nil {
				in.byKey = map[fileID]ident{}
			}
			if _, dup := in.byKey[k]; !dup {
				in.byKey[k] = id
			}
		}
		if fi.IsDir() {
			in.dirs = append(in.dirs, id)
		} else {
			in.files = append(in.files, id)
		}
	}
	return in
}

// InputError is an output refused because writing it would replace or
// mix with an input.
type InputError struct {
	Output, Input string
	Why           string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s %s %s; refusing to write it (an output never replaces an input: write it elsewhere, or use fix --in-place, which keeps a backup)", e.Output, e.Why, e.Input)
}

// CheckFile returns an *InputError when writing path would replace an input
// file: path is that file, through any link. A path that does not exist yet
// is no input.
func (in *Inputs) CheckFile(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if k, ok := fileKey(fi); ok {
		id, found := in.byKey[k]
		switch {
		case !found:
			return nil
		case id.fi.IsDir():
			return &InputError{Output: path, Input: id.name, Why: "is the input folder"}
		}
		return &InputError{Output: path, Input: id.name, Why: "is the input"}
	}
	for _, f := range in.files {
		if os.SameFile(fi, f.fi) {
			return &InputError{Output: path, Input: f.name, Why: "is the input"}
		}
	}
	for _, d := range in.dirs {
		if os.SameFile(fi, d.fi) {
			return &InputError{Output: path, Input: d.name, Why: "is the input folder"}
		}
	}
	return nil
}

// CheckDir returns an *InputError when dir, a folder the run writes files
// into, is an input folder, lies inside one, or holds an input: its files
// could then replace inputs, or be read as inputs by the next run.
func (in *Inputs) CheckDir(dir string) error {
	if err := in.CheckFile(dir); err != nil {
		return err
	}
	up := ancestors(dir)
	for _, d := range in.dirs {
		for _, a := range up {
			if os.SameFile(a, d.fi) {
				return &InputError{Output: dir, Input: d.name, Why: "is inside the input folder"}
			}
		}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil // a new folder holds nothing yet
	}
	for _, set := range [][]ident{in.files, in.dirs} {
		for _, f := range set {
			for _, a := range ancestors(f.name) {
				if os.SameFile(a, fi) {
					return &InputError{Output: dir, Input: f.name, Why: "holds the input"}
				}
			}
		}
	}
	return nil
}

// ancestors are the folders above p, both as spelled (each folder's link
// followed) and as resolved (p's own links followed first): a file reached
// through a link lives in both places.
func ancestors(p string) []os.FileInfo {
	var out []os.FileInfo
	add := func(q string) {
		for {
			parent := filepath.Dir(q)
			if parent == q {
				return
			}
			q = parent
			if fi, err := os.Stat(q); err == nil {
				out = append(out, fi)
			}
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil
	}
	add(abs)
	if real, err := resolveExisting(abs); err == nil && real != abs {
		add(real)
	}
	return out
}

// resolveExisting resolves the links of the longest part of p that exists
// and joins the rest: a folder not made yet resolves through its parent.
func resolveExisting(p string) (string, error) {
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", os.ErrNotExist
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
