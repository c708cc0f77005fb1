package repair

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// Expand turns command-line arguments into the files to repair, walking
// folders the way every command does (jsonl.ExpandFunc): a directory (or a
// link to one) is walked recursively for *.jsonl files; hidden folders such
// as .git are skipped, and so are backups and temporary files, which do not
// end in .jsonl. Any other argument is taken as a file whatever its name, so
// that File reports a missing path or a non-regular file. Folders that
// cannot be read during a walk come back as Failed results (an entry named
// like data that is not a regular file is listed, for File to say what it
// is), and a directory without any *.jsonl file as an Empty one. Files are sorted within each argument and
// listed once.
func Expand(args []string) (files []string, failed []Result) {
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, arg := range args {
		if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
			add(arg)
			continue
		}
		found, skipped, errs := jsonl.ExpandFunc([]string{arg}, isJSONL)
		for _, err := range errs {
			failed = append(failed, Result{File: errPath(err, arg), Outcome: Failed, Reason: describe(err)})
		}
		if len(found) == 0 && len(skipped) == 0 {
			failed = append(failed, Result{File: arg, Outcome: Empty, Reason: ReasonNoFiles})
		}
		// An entry named like data that is not a regular file (a link to a
		// folder, a FIFO) goes to File, which says what it is.
		found = append(found, skipped...)
		slices.Sort(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, failed
}

func isJSONL(path string) bool { return strings.EqualFold(filepath.Ext(path), ".jsonl") }

// errPath names the file or folder a walk error is about.
func errPath(err error, arg string) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	return arg
}
