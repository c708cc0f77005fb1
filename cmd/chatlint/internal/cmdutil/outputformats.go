package cmdutil

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/report"
)

// Where says where a command may write an output format.
type Where uint8

const (
	// ToStdout: -o FORMAT (or -o FORMAT=-).
	ToStdout Where = 1 << iota
	// ToFile: -o FORMAT=FILE.
	ToFile
	// Anywhere: either.
	Anywhere = ToStdout | ToFile
)

// OutputFormat is one format a command writes, and where it may go.
type OutputFormat struct {
	Name  string
	Where Where
}

// commandOutputs is the output registry: the formats each command's -o
// allows. check writes every findings format of engine/report; the others
// write formats of their own, and stats the report page (html) too. A
// command not listed has no -o of this kind (convert and fix write data,
// not reports).
var commandOutputs = map[string][]OutputFormat{
	"stats":  {{"text", Anywhere}, {"json", Anywhere}, {"html", ToFile}},
	"repair": {{"text", Anywhere}, {"json", Anywhere}},
	"rules":  {{"text", Anywhere}, {"json", Anywhere}, {"markdown", Anywhere}},
	// validate-input's --report-json, the contract validator's report.
	"validate-input": {{"json", ToFile}},
}

// AllowedOutputs lists the formats command's -o allows, in the order its
// usage names them.
func AllowedOutputs(command string) []OutputFormat {
	if command == "check" {
		var out []OutputFormat
		for _, f := range report.Formats() {
			out = append(out, OutputFormat{f, Anywhere})
		}
		return out
	}
	if fs, ok := commandOutputs[command]; ok {
		return fs
	}
	panic("cmdutil: no outputs registered for " + command)
}

// allowedText names the formats for a usage error: "text, json or
// markdown, optionally =FILE", and the file-only ones as "html=FILE".
func allowedText(formats []OutputFormat) string {
	var anywhere, stdout, file []string
	for _, f := range formats {
		switch f.Where {
		case Anywhere:
			anywhere = append(anywhere, f.Name)
		case ToStdout:
			stdout = append(stdout, f.Name)
		case ToFile:
			file = append(file, f.Name+"=FILE")
		}
	}
	var parts []string
	if len(anywhere) > 0 {
		parts = append(parts, orList(anywhere)+", optionally =FILE")
	}
	if len(stdout) > 0 {
		parts = append(parts, orList(stdout)+" on stdout")
	}
	if len(file) > 0 {
		parts = append(parts, orList(file))
	}
	return strings.Join(parts, ", or ")
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// checkAllowed refuses a format command does not write, or writes only
// elsewhere.
func checkAllowed(command, format string, toFile bool) error {
	formats := AllowedOutputs(command)
	i := slices.IndexFunc(formats, func(f OutputFormat) bool { return f.Name == format })
	switch {
	case i < 0:
		return fmt.Errorf("unknown output format %q (want %s)", format, allowedText(formats))
	case toFile && formats[i].Where&ToFile == 0:
		return fmt.Errorf("%s %s goes to stdout, not to a file: -o %s", command, format, format)
	case !toFile && formats[i].Where&ToStdout == 0:
		return fmt.Errorf("%s %s goes to a file: -o %s=FILE", command, format, format)
	}
	return nil
}
