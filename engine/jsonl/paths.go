package jsonl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Stdin is the argument that names standard input.
const Stdin = "-"

// Expand turns command-line arguments into the list of inputs to read: files
// as given, directories walked recursively for *.jsonl and *.json files
// (hidden directories such as .git and fix's *.rejects.jsonl are skipped),
// "-" for standard input. The
// result is sorted and without duplicates. Arguments that cannot be read are
// returned as errors; the others are still expanded.
//
// Only regular files are read: a FIFO would block the run and a device such
// as /dev/zero never ends. A walk skips anything else (a symbolic link is
// followed when it leads to a regular file); a named argument that is not a
// regular file or a directory is an error (use - to read a pipe).
func Expand(args []string) ([]string, []error) {
	files, _, errs := ExpandSkipping(args)
	return files, errs
}

// ExpandSkipping is Expand that also returns the entries a folder walk
// skipped although their names are data files: FIFOs, devices, sockets
// and links to nothing. Commands note them, so a skipped input is never
// silent.
func ExpandSkipping(args []string) (files, skipped []string, errs []error) {
	return ExpandFunc(args, IsDataFile)
}

// ExpandFunc is ExpandSkipping with the test a walked file must pass to be
// picked up (IsDataFile for the commands that read records; repair takes
// *.jsonl only). A file named on the command line is taken whatever its
// name.
func ExpandFunc(args []string, accept func(path string) bool) (files, skipped []string, errs []error) {
	return expand(args, accept, false)
}

// ExpandHidden is ExpandFunc that also walks hidden folders (.name): for a
// drop-in whose reference tool globs every folder (convert: Python's rglob
// does not skip them).
func ExpandHidden(args []string, accept func(path string) bool) (files, skipped []string, errs []error) {
	return expand(args, accept, true)
}

func expand(args []string, accept func(path string) bool, hidden bool) (files, skipped []string, errs []error) {
	for _, arg := range args {
		if arg == Stdin {
			files = append(files, Stdin)
			continue
		}
		info, err := os.Stat(arg)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !info.IsDir() {
			if !info.Mode().IsRegular() {
				errs = append(errs, &fs.PathError{Op: "read", Path: arg, Err: ErrNotRegular})
				continue
			}
			files = append(files, arg)
			continue
		}
		// WalkDir does not follow a root that is a symbolic link; a
		// trailing separator makes it walk the folder the link leads to.
		root := arg
		if li, err := os.Lstat(arg); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			root = arg + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if d.IsDir() {
				if !hidden && path != root && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if accept(path) {
				if isRegular(path, d) {
					files = append(files, path)
				} else {
					skipped = append(skipped, path)
				}
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), skipped, errs
}

// ErrNotRegular is the error for a named input that is neither a regular
// file nor a directory.
var ErrNotRegular = errors.New("not a regular file (a device, FIFO or socket); use - to read a stream")

// isRegular reports whether a walked entry is a regular file, following a
// symbolic link.
func isRegular(path string, d fs.DirEntry) bool {
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// RejectsSuffix ends the files where fix keeps what it dropped. They are
// not data: a directory walk skips them (name one to read it).
const RejectsSuffix = ".rejects.jsonl"

// IsDataFile reports whether a directory walk picks up the file.
func IsDataFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return (ext == ".jsonl" || ext == ".json" || ext == ".traj") && !strings.HasSuffix(path, RejectsSuffix)
}

// IsJSONDocument reports whether the file is read as one JSON document
// rather than as JSON Lines: a .json file, or a .traj file (an agent
// trajectory, one pretty-printed JSON object). Every reader of documents
// asks here, so a document extension is added in one place.
func IsJSONDocument(path string) bool {
	ext := filepath.Ext(path)
	return strings.EqualFold(ext, ".json") || strings.EqualFold(ext, ".traj")
}
