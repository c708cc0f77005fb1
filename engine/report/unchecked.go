package report

import "github.com/chatlint/chatlint/engine/finding"

// notChecked says why no rule ran on an input: a file that could not be
// read, that matched no format, or that was skipped whole. Reports that list
// rules per file (junit) or the run's outcome (sarif) must not show such a
// file as passing every rule. ok is false for an input the rules checked,
// and for an empty file (it holds nothing to check, and is a warning).
type notChecked struct {
	Rule    string // the finding's rule that says so, or the case name
	Message string
	Read    bool // the input could not be read: an error of the run, not a finding
}

func uncheckedInput(in finding.Input) (notChecked, bool) {
	switch {
	case in.Error != "":
		return notChecked{Rule: "input-error", Message: "not read: " + in.Error, Read: true}, true
	case in.Format != "" || in.Warning != "":
		return notChecked{}, false
	case in.Records > 0:
		return notChecked{Rule: "unrecognized-format", Message: "unrecognized format: no rule checked this file"}, true
	}
	return notChecked{Rule: "not-checked", Message: "not checked: no record of this file was read"}, true
}

// uncheckedInputs indexes the inputs no rule ran on, by file name.
func uncheckedInputs(s finding.Summary) map[string]notChecked {
	out := map[string]notChecked{}
	for _, in := range s.Inputs {
		if nc, ok := uncheckedInput(in); ok {
			out[in.File] = nc
		}
	}
	return out
}
