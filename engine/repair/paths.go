package repair

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Expand turns command-line arguments into the files to repair. A directory
// (or a link to one) is walked recursively for *.jsonl files: hidden folders
// such as .git are skipped, and so are backups and temporary files, which do
// not end in .jsonl. Any other argument is taken as a file whatever its name,
// so that File reports a missing path or a non-regular file. Folders that
// cannot be read during a walk come back as Failed results, and a directory
// without any *.jsonl file as an Empty one. Files are sorted
// within each argument and listed once.
func Expand(args []string) (files []string, failed []Result) {
	seen := map[string]bool{}
	for _, arg := range args {
		if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
			if !seen[arg] {
				seen[arg] = true
				files = append(files, arg)
			}
			continue
		}
		root := arg
		if fi, err := os.Lstat(arg); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			root = arg + string(filepath.Separator) // a trailing slash follows the link
		}
		var found []string
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				failed = append(failed, Result{File: path, Outcome: Failed, Reason: describe(err)})
			case d.IsDir():
				if path != root && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
			case strings.EqualFold(filepath.Ext(path), ".jsonl"):
				found = append(found, path)
			}
			return nil
		})
		if len(found) == 0 {
			failed = append(failed, Result{File: arg, Outcome: Empty, Reason: ReasonNoFiles})
		}
		slices.Sort(found)
		for _, f := range found {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return files, failed
}
