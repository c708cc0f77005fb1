// Package repair is `chatlint repair`: lines that are not JSON move to a backup.
package repair

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/repair"
	"github.com/chatlint/chatlint/engine/report"
)

type repairOptions struct {
	IO cmdutil.IOStreams

	Paths  []string
	DryRun bool
	Force  bool
	// IgnoreWriters: see repair.Options.
	IgnoreWriters bool
	Outputs       []string
	Format        string

	specs  []cmdutil.OutputSpec // Outputs, parsed
	format document.Format      // Format, parsed
}

// NewCmdRepair returns the `chatlint repair` command writing to s.
// runF, when not nil, receives the parsed and validated options instead of
// the run (tests).
func NewCmdRepair(s cmdutil.IOStreams, runF func(*repairOptions) error) *cobra.Command {
	o := &repairOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "repair FILE|DIR...",
		Short: "Drop the lines that are not JSON from JSONL files, keeping a backup",
		Long: `Repair makes damaged JSONL files parseable again, in place.

Lines end at LF or CRLF; blank lines are skipped. A line that is not valid
JSON (a record cut short by a crash, say) is dropped; a line holding several
JSON values glued by lone CRs is split into them; invalid UTF-8 inside a
string is replaced by U+FFFD. Every other line is kept byte for byte.

A file with nothing to change is not touched (same bytes, same modification
time). Otherwise the original is first copied to FILE.bak-<UTC time>-<random>,
then replaced atomically by the kept lines (LF endings, final newline, the
original's mode). A file where more lines would be dropped than kept is
skipped unless --force is given.

An pi-session transcript must start with its header {"type": "session",
"id": ...} (a corrupt line before it is fine); when it does not, the file is
skipped with "invalid session header" and left as it is.

Directories are walked recursively for *.jsonl files.

Exit status: 0 when every file is clean, empty or repaired; 1 when a file
was skipped (or, with --dry-run, would be repaired); 2 for usage errors,
for files that could not be read or rewritten, and for files that are not
JSON Lines at all (binary such as Parquet, Markdown, one pretty-printed
JSON document): those are refused and left as they are.`,
		Example: `  chatlint repair --dry-run sessions/
  chatlint repair sessions/2026-11-20.jsonl
  chatlint repair -o json data/ > repair.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runRepair(cmd, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.DryRun, "dry-run", false, "report what would be repaired without writing anything")
	f.BoolVar(&o.Force, "force", false, "repair a file even when most of its lines are not JSON")
	f.BoolVar(&o.IgnoreWriters, "ignore-writers", false, "replace a file even while another process has it open for writing (what it writes afterwards is lost)")
	f.StringArrayVarP(&o.Outputs, "output", "o", nil, "output `FORMAT[=FILE]`: text (default) or json, on stdout or to a file (repeatable)")
	cmdutil.AddFormatFlag(cmd, &o.Format, "treat every file as this format: a format whose files open with a header requires it, the others never do (default: detect per file)")
	return cmd
}

// validate checks the arguments and flags before any file is touched.
func (o *repairOptions) validate() error {
	if len(o.Paths) == 0 {
		return cmdutil.UsageError("repair needs at least one file or directory")
	}
	var err error
	if o.specs, err = cmdutil.ParseOutputs("repair", o.Outputs); err != nil {
		return cmdutil.UsageError("--output: %v", err)
	}
	if o.format, err = cmdutil.ParseFormat(o.Format); err != nil {
		return err
	}
	for _, p := range o.Paths {
		if p == "-" {
			return cmdutil.UsageError("repair rewrites files in place: it cannot read standard input")
		}
	}
	return nil
}

func runRepair(cmd *cobra.Command, o *repairOptions) error {
	specs := o.specs
	opts := repair.Options{DryRun: o.DryRun, Force: o.Force, IgnoreWriters: o.IgnoreWriters, Format: o.format}

	if err := cmdutil.RefuseParquet("repair", o.Paths); err != nil {
		return err
	}
	files, results := repair.Expand(o.Paths)
	// The reports are opened before any file is rewritten: a report that
	// names one of them is refused while nothing is changed yet.
	dests, err := cmdutil.OpenDests(specs, o.IO.Out, files)
	if err != nil {
		return err
	}
	rws := make([]repairWriter, len(dests))
	for i, d := range dests {
		rws[i] = &repairText{w: d}
		if d.Spec.Format == "json" {
			rws[i] = &repairJSON{w: d}
		}
	}
	each := func(r repair.Result) {
		for _, rw := range rws {
			rw.result(r)
		}
	}
	for _, r := range results {
		each(r)
	}
	for _, f := range files {
		if err := cmd.Context().Err(); err != nil {
			cmdutil.AbortDests(dests)
			return err
		}
		r := repair.File(f, opts)
		results = append(results, r)
		each(r)
	}
	var first error
	for i, rw := range rws {
		if err := dests[i].Finish(rw.close()); first == nil {
			first = err
		}
	}
	if first != nil {
		return first
	}
	return repairExit(results)
}

// repairExit: 2 when a file could not be read or rewritten, 1 when one was
// skipped or (dry run) needs a repair, 0 otherwise.
func repairExit(results []repair.Result) error {
	code := cmdutil.ExitClean
	for _, r := range results {
		switch r.Outcome {
		case repair.Failed, repair.Refused:
			return &cmdutil.ExitCode{Code: cmdutil.ExitError}
		case repair.Skipped, repair.WouldRepair:
			code = cmdutil.ExitFindings
		}
	}
	if code != cmdutil.ExitClean {
		return &cmdutil.ExitCode{Code: code}
	}
	return nil
}

type repairWriter interface {
	result(repair.Result)
	close() error
}

// repairText prints a line per file as soon as it is done.
type repairText struct {
	w   io.Writer
	err error
	n   map[repair.Outcome]int
}

func (t *repairText) result(r repair.Result) {
	if t.n == nil {
		t.n = map[repair.Outcome]int{}
	}
	t.n[r.Outcome]++
	var line string
	switch r.Outcome {
	case repair.Clean:
		line = "clean"
	case repair.Repaired:
		line = "repaired: " + changes(r.Stats) + ", backup " + report.EscapeControls(r.Backup)
	case repair.WouldRepair:
		line = "would repair: " + changes(r.Stats) + " (dry run)"
	case repair.Refused:
		line = "refused: " + r.Reason + "; it was not touched"
	default:
		line = "skipped: " + report.EscapeControls(r.Reason)
	}
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, "%s: %s\n", report.EscapeControls(r.File), line)
	}
}

func changes(st repair.Stats) string {
	s := fmt.Sprintf("dropped %d line(s)", st.Dropped)
	if st.Split > 0 {
		s += fmt.Sprintf(", split %d line(s) at lone CRs", st.Split)
	}
	if st.Mended > 0 {
		s += fmt.Sprintf(", replaced invalid UTF-8 in %d record(s)", st.Mended)
	}
	return s
}

func (t *repairText) close() error {
	if t.err != nil {
		return t.err
	}
	total := 0
	for _, c := range t.n {
		total += c
	}
	repaired := fmt.Sprintf("%d repaired", t.n[repair.Repaired])
	if n := t.n[repair.WouldRepair]; n > 0 {
		repaired = fmt.Sprintf("%d to repair", n)
	}
	_, err := fmt.Fprintf(t.w, "%d file(s): %s, %d clean, %d skipped\n", total, repaired,
		t.n[repair.Clean], t.n[repair.Empty]+t.n[repair.Skipped]+t.n[repair.Failed]+t.n[repair.Refused])
	return err
}

// repairJSON prints one JSON array of the files when all are done.
type repairJSON struct {
	w     io.Writer
	items []repairItem
}

type repairItem struct {
	File         string `json:"file"`
	Repaired     bool   `json:"repaired"`
	DroppedLines int    `json:"dropped_lines"`
	SplitLines   int    `json:"split_lines"`
	InvalidUTF8  int    `json:"invalid_utf8_records"`
	Backup       string `json:"backup"`
	Reason       string `json:"reason"`
}

func (j *repairJSON) result(r repair.Result) {
	it := repairItem{File: r.File, Repaired: r.Outcome == repair.Repaired, Backup: r.Backup, Reason: r.Reason}
	if r.Outcome == repair.Repaired || r.Outcome == repair.WouldRepair {
		it.DroppedLines, it.SplitLines, it.InvalidUTF8 = r.Stats.Dropped, r.Stats.Split, r.Stats.Mended
	}
	if r.Outcome == repair.WouldRepair {
		it.Reason = "dry run: not written"
	}
	j.items = append(j.items, it)
}

func (j *repairJSON) close() error {
	if j.items == nil {
		j.items = []repairItem{}
	}
	enc := json.NewEncoder(j.w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(j.items)
}
