package finding

import "slices"

// Input is what a run made of one input: the format it was read as and how
// many records it held, or why it could not be read. A run that names what
// it checked cannot pass silently on data it never looked at.
type Input struct {
	File string `json:"file"`
	// Format is the detected (or forced) format; "" when the input matched
	// none, was empty or could not be read.
	Format  string `json:"format,omitempty"`
	Records int    `json:"records"`
	// Warning says why nothing was checked in a readable input (an empty
	// file); it is counted in the summary's warnings.
	Warning string `json:"warning,omitempty"`
	// Error says why the input could not be read (or read to its end).
	Error string `json:"error,omitempty"`
}

// EmptyWarning is the warning of an input without a single record.
const EmptyWarning = "empty: no record, nothing was checked"

// AddInput records one input; an empty input counts as a warning.
func (s *Summary) AddInput(in Input) {
	if in.Warning != "" {
		s.Warnings++
	}
	s.Inputs = append(s.Inputs, in)
}

// SortInputs orders the inputs by file name, the order findings come in.
func (s *Summary) SortInputs() {
	slices.SortStableFunc(s.Inputs, func(a, b Input) int {
		switch {
		case a.File < b.File:
			return -1
		case a.File > b.File:
			return 1
		}
		return 0
	})
}

// FormatCount is how many inputs and records one format had.
type FormatCount struct {
	Format         string
	Files, Records int
}

// ByFormat totals the readable inputs per format, in order of first
// appearance; inputs of no format are counted as "unrecognized", empty
// files as "empty", and a file skipped whole (a .json document over the
// size bound) as "not checked".
func (s Summary) ByFormat() []FormatCount {
	var out []FormatCount
	for _, in := range s.Inputs {
		if in.Error != "" {
			continue
		}
		f := in.Format
		switch {
		case f != "":
		case in.Warning != "":
			f = "empty"
		case in.Records > 0:
			f = "unrecognized"
		default:
			f = "not checked"
		}
		i := slices.IndexFunc(out, func(c FormatCount) bool { return c.Format == f })
		if i < 0 {
			out = append(out, FormatCount{Format: f})
			i = len(out) - 1
		}
		out[i].Files++
		out[i].Records += in.Records
	}
	return out
}
