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
	File   string // "" for stdout
	// Flag names the output in errors when it is not -o (validate-input's
	// --report-json); "" means -o FORMAT=FILE.
	Flag string
}

// label names the output in an error.
func (s OutputSpec) label() string {
	if s.Flag != "" {
		return s.Flag
	}
	if s.File == "" {
		return "-o " + s.Format
	}
	return "-o " + s.Format + "=" + s.File
}

// ParseOutputs reads command's -o FORMAT and -o FORMAT=FILE values against
// the formats it allows (AllowedOutputs); none means text on stdout. At most
// one may go to stdout, and a file may be named once: two writers
// interleaving in one stream would give neither format.
func ParseOutputs(command string, values []string) ([]OutputSpec, error) {
	if len(values) == 0 && checkAllowed(command, "text", false) == nil {
		values = []string{"text"}
	}
	var specs []OutputSpec
	stdout := ""
	files := map[string]bool{}
	for _, v := range values {
		format, file, _ := strings.Cut(v, "=")
		if file == "-" {
			file = ""
		}
		if err := checkAllowed(command, format, file != ""); err != nil {
			return nil, err
		}
		if file == "" {
			if stdout != "" {
				return nil, fmt.Errorf("both %s and %s would write to stdout; give one of them a file: -o %s=FILE", stdout, format, format)
			}
			stdout = format
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
		flag := s.Flag
		if flag == "" {
			flag = "-o " + s.Format
		}
		outs = append(outs, Output{Flag: flag, Path: s.File})
	}
	return outs
}

// Dest is where one output goes: stdout, or a file replaced atomically when
// it is finished (engine/atomicfile: written to a temporary file as the run
// streams, renamed at the end), so a failed run never leaves half a report
// where CI uploads it.
type Dest struct {
	Spec OutputSpec
	io.Writer
	file *atomicfile.File // nil for stdout
}

// OpenDests opens a destination per spec, in order. An output that is one
// of the inputs is refused before anything is written; so is a file in a
// folder that does not exist.
func OpenDests(specs []OutputSpec, stdout io.Writer, inputs []string) ([]*Dest, error) {
	if err := RefuseInputs(inputs, SpecOutputs(specs)...); err != nil {
		return nil, err
	}
	var ds []*Dest
	for _, s := range specs {
		d := &Dest{Spec: s, Writer: stdout}
		if s.File != "" {
			if dir := filepath.Dir(s.File); !IsDir(dir) {
				AbortDests(ds)
				return nil, fmt.Errorf("%s: folder %s does not exist", s.label(), dir)
			}
			f, err := atomicfile.Create(s.File, 0o644)
			if err != nil {
				AbortDests(ds)
				return nil, fmt.Errorf("%s: %w", s.label(), err)
			}
			d.Writer, d.file = f, f
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// Finish moves a file into place, or discards it when cause is not nil
// (and returns cause). Finishing twice does nothing.
func (d *Dest) Finish(cause error) error {
	f := d.file
	d.file = nil
	if f == nil {
		return cause
	}
	if cause != nil {
		f.Abort()
		return cause
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", d.Spec.File, err)
	}
	return nil
}

// AbortDests discards the files of a run that will not finish.
func AbortDests(ds []*Dest) {
	for _, d := range ds {
		d.Finish(errors.New("run aborted"))
	}
}

// WriteOutputs writes each spec's output at once through write (given the
// format and where it goes) and finishes it; the first error is returned,
// and a file whose write failed is discarded.
func WriteOutputs(specs []OutputSpec, stdout io.Writer, inputs []string, write func(format string, w io.Writer) error) error {
	ds, err := OpenDests(specs, stdout, inputs)
	if err != nil {
		return err
	}
	var first error
	for _, d := range ds {
		err := first // after a failed write, the rest are discarded unwritten
		if err == nil {
			err = write(d.Spec.Format, d)
		}
		if err = d.Finish(err); first == nil {
			first = err
		}
	}
	return first
}

// Outputs fans findings out to the report writer of every spec.
type Outputs struct {
	writers []report.Writer
	dests   []*Dest // parallel to writers
}

// OpenOutputs starts every report writer of specs. A report file that is
// one of the inputs (opts.Files) is refused before anything is written.
func OpenOutputs(specs []OutputSpec, stdout io.Writer, opts report.Options) (*Outputs, error) {
	ds, err := OpenDests(specs, stdout, opts.Files)
	if err != nil {
		return nil, err
	}
	o := &Outputs{dests: ds}
	color := opts.Color
	for _, d := range ds {
		opts.Color = color && d.file == nil // never colour a file
		wr, err := report.NewWith(d.Spec.Format, d, opts)
		if err != nil {
			o.Abort()
			return nil, err
		}
		o.writers = append(o.writers, wr)
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
		err := o.dests[i].Finish(w.Close(s))
		if first == nil {
			first = err
		}
	}
	return first
}

// Abort discards the report files of a run that will not finish.
func (o *Outputs) Abort() { AbortDests(o.dests) }

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
