package jsonl

import (
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
func Expand(args []string) ([]string, []error) {
	var files []string
	var errs []error
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
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if d.IsDir() {
				if path != arg && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if IsDataFile(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), errs
}

// RejectsSuffix ends the files where fix keeps what it dropped. They are
// not data: a directory walk skips them (name one to read it).
const RejectsSuffix = ".rejects.jsonl"

// IsDataFile reports whether a directory walk picks up the file.
func IsDataFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return (ext == ".jsonl" || ext == ".json") && !strings.HasSuffix(path, RejectsSuffix)
}

// IsJSONDocument reports whether the file is read as one JSON document
// (a .json file) rather than as JSON Lines.
func IsJSONDocument(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".json")
}
