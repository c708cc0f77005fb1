package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// OutputSpec is one -o value: a format, written to stdout or to a file.
type OutputSpec struct {
	Format string
	File   string // "" or "-" for stdout
}

// ParseOutputs reads -o FORMAT and -o FORMAT=FILE values. At most one may
// go to stdout, and a file may be named once: two writers interleaving in one
// stream would give neither format.
func ParseOutputs(values []string) ([]OutputSpec, error) {
	if len(values) == 0 {
		values = []string{"text"}
	}
	var specs []OutputSpec
	stdout := ""
	files := map[string]bool{}
	for _, v := range values {
		format, file, _ := strings.Cut(v, "=")
		if !report.IsFormat(format) {
			return nil, fmt.Errorf("unknown output format %q (want %s, optionally =FILE)", format, strings.Join(report.Formats(), ", "))
		}
		if file == "" || file == "-" {
			if stdout != "" {
				return nil, fmt.Errorf("both %s and %s would write to stdout; give one of them a file: -o %s=FILE", stdout, format, format)
			}
			stdout = format
			file = ""
		} else {
			abs, _ := filepath.Abs(file)
			if files[abs] {
				return nil, fmt.Errorf("%s is named by two outputs", file)
			}
			files[abs] = true
		}
		specs = append(specs, OutputSpec{Format: format, File: file})
	}
	return specs, nil
}

// SpecOutputs are the files specs write, for RefuseInputs.
func SpecOutputs(specs []OutputSpec) []Output {
	var outs []Output
	for _, s := range specs {
		outs = append(outs, Output{Flag: "-o " + s.Format, Path: s.File})
	}
	return outs
}

// Outputs fans findings out to every writer. A report file is replaced
// atomically when the run closes it (engine/atomicfile: written to a
// temporary file as the run streams, renamed at the end), so a failed run
// never leaves half a report where CI uploads it.
type Outputs struct {
	writers []report.Writer
	files   []*reportFile // parallel to writers; nil for stdout
}

// reportFile is a report being written to path.
type reportFile struct {
	path string
	f    *atomicfile.File
}

func createReport(path string) (*reportFile, error) {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, err
	}
	return &reportFile{path: path, f: f}, nil
}

// finish commits the file, or discards it when cause is not nil.
func (rf *reportFile) finish(cause error) error {
	if cause != nil {
		rf.f.Abort()
		return cause
	}
	if err := rf.f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", rf.path, err)
	}
	return nil
}

// OpenOutputs starts every writer of specs. A report file that is one of
// the inputs (opts.Files) is refused before anything is written.
func OpenOutputs(specs []OutputSpec, stdout io.Writer, opts report.Options) (*Outputs, error) {
	if err := RefuseInputs(opts.Files, SpecOutputs(specs)...); err != nil {
		return nil, err
	}
	o := &Outputs{}
	color := opts.Color
	for _, s := range specs {
		var w io.Writer = stdout
		var rf *reportFile
		opts.Color = color && s.File == "" // never colour a file
		if s.File != "" {
			if dir := filepath.Dir(s.File); !IsDir(dir) {
				o.Abort()
				return nil, fmt.Errorf("-o %s=%s: folder %s does not exist", s.Format, s.File, dir)
			}
			var err error
			if rf, err = createReport(s.File); err != nil {
				o.Abort()
				return nil, fmt.Errorf("-o %s=%s: %w", s.Format, s.File, err)
			}
			w = rf.f
		}
		wr, err := report.NewWith(s.Format, w, opts)
		if err != nil {
			o.Abort()
			return nil, err
		}
		o.writers = append(o.writers, wr)
		o.files = append(o.files, rf)
	}
	return o, nil
}

func IsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func (o *Outputs) Finding(f finding.Finding) error {
	for _, w := range o.writers {
		if err := w.Finding(f); err != nil {
			return err
		}
	}
	return nil
}

// Close finishes every writer and moves the report files into place.
func (o *Outputs) Close(s finding.Summary) error {
	var first error
	for i, w := range o.writers {
		err := w.Close(s)
		if rf := o.files[i]; rf != nil {
			err = rf.finish(err)
			o.files[i] = nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// Abort discards the report files of a run that will not finish.
func (o *Outputs) Abort() {
	for i, rf := range o.files {
		if rf != nil {
			rf.finish(errors.New("run aborted"))
			o.files[i] = nil
		}
	}
}

// InputNames are the names findings carry for each input, for formats that
// list the files checked.
func InputNames(inputs []runner.Input) []string {
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = in.Name
	}
	return out
}

// ReportFailOn turns --fail-on (0 for never) into the writers' option.
func ReportFailOn(s finding.Severity) finding.Severity {
	if s == 0 {
		return report.NoFailure
	}
	return s
}

// UseColor decides --color: auto colours only a terminal, and never when
// NO_COLOR is set to anything (no-color.org) or TERM is dumb.
func UseColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
			return false, nil
		}
		return IsTerminal(stdout), nil
	}
	return false, fmt.Errorf("want auto, always or never, not %q", mode)
}

// SetStats hands dataset statistics to the writers that show them (html).
func (o *Outputs) SetStats(s *report.Stats) {
	for _, w := range o.writers {
		if r, ok := w.(report.StatsReceiver); ok {
			r.SetStats(s)
		}
	}
}
