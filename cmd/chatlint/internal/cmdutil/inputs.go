package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// NoteSkipped says on stderr which entries of a folder were skipped
// although named like data (a FIFO, a device, a socket, a broken link): a
// skipped input is never silent.
func NoteSkipped(stderr io.Writer, skipped []string) {
	for _, p := range skipped {
		fmt.Fprintf(stderr, "chatlint: note: %s skipped: not a regular file (a FIFO, device, socket or broken link)\n", report.EscapeControls(p))
	}
}

// missingInputs is the usage error when nothing named on the command line
// exists: nothing is run and no summary printed, which read as if a run had
// found the inputs clean. (When some inputs exist they are checked and the
// summary lists the missing ones with their error.)
func missingInputs(paths []string, errs []error) error {
	var missing []string
	for _, err := range errs {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) && slices.Contains(paths, pe.Path) {
			missing = append(missing, report.EscapeControls(pe.Path))
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return UsageError("%s: no such file or directory", missing[0])
	}
	return UsageError("no such files or directories: %s", strings.Join(missing, ", "))
}

// EscapeLines escapes the control characters of each line of s, keeping
// the line breaks: for messages of several lines (a compile error per line)
// that name files or quote data.
func EscapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = report.EscapeControls(l)
	}
	return strings.Join(lines, "\n")
}

// ExpandInputs turns the paths of a command line into the runner's inputs,
// the same way for every command that reads records (check, stats, convert
// --to): folders walked for *.jsonl, *.json, *.traj and *.parquet
// (IsInputFile), "-" read from stdin, skipped entries noted on stderr. It returns the inputs and the paths that could
// not be read; a usage error when nothing named exists or nothing is found.
func ExpandInputs(paths []string, s IOStreams) ([]runner.Input, []error, error) {
	files, skipped, errs := jsonl.ExpandFunc(paths, IsInputFile)
	NoteSkipped(s.ErrOut, skipped)
	if len(files) == 0 {
		if err := missingInputs(paths, errs); err != nil {
			return nil, nil, err
		}
		if len(errs) == 0 {
			return nil, nil, UsageError("no input files found in %s (directories are searched for *.jsonl, *.json, *.traj and *.parquet files)", strings.Join(paths, ", "))
		}
	}
	inputs := make([]runner.Input, 0, len(files))
	for _, f := range files {
		if f == jsonl.Stdin {
			inputs = append(inputs, runner.Input{Name: "<stdin>", Reader: s.In})
			continue
		}
		inputs = append(inputs, runner.Input{Name: f, Path: f})
	}
	return inputs, errs, nil
}
