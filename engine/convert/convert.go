// Package convert turns folders of proxy request/response logs (one session
// per file) into a fine-tuning dataset: one {"messages", "tools"} record per
// session, grouped by date or scenario, plus a tool-usage report and an
// integrity report. It is a drop-in for the reference converter
// (albicilla-conv): the same logs give the same bytes. See docs/convert.md.
//
// Per session: read and check each line against the reference's entry model,
// clean each entry with cleanup packs (goose by default), validate the
// session (one session_id, increasing timestamps, trailing shorter entries
// cut), squash it into one record, check it with the integrity pack, and
// write it. Files are found and read as check finds and reads them
// (jsonl.ExpandHidden, runner.Each: one reader, one pool, bounded memory);
// sessions run in parallel; output follows discovery order.
package convert

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/report"
)

// Groupings of the output files.
const (
	GroupDate     = "date"
	GroupScenario = "scenario"
)

// Default names of the reports in the output folder.
const (
	ToolReportName      = "tool-usage.csv"
	IntegrityReportName = "integrity-report.txt"
	IntegrityJSONName   = "integrity-report.json"
)

// Options are convert's settings; the zero value is not useful, see the
// command for the defaults.
type Options struct {
	Logs, Output   string // folders, as the user gave them
	SingleFile     bool   // one conversations.jsonl
	GroupBy        string // GroupDate or GroupScenario
	JSONToolCalls  bool   // inline <tool_call>/<tool_result> representation
	ToolReport     bool
	ToolReportPath string // "" means Output/tool-usage.csv
	Integrity      bool
	Anonymize      bool
	CleanupGoose   bool
	Cleanup        []*policy.Pack // more cleanup packs, applied after goose
	KeepGoing      bool           // skip an invalid session instead of aborting
	Workers        int            // 0 means GOMAXPROCS
	Stdout         io.Writer      // report lines and summary
	Verbose        io.Writer      // nil: quiet
	// Rand gives the randomness for anonymizing the record of session i;
	// nil means crypto/rand. Tests make it deterministic.
	Rand func(i int) io.Reader
}

// Result sums up a run.
type Result struct {
	Sessions, Records int
	Errors, Warnings  int
	// Invalid is the session that aborted the run (nil with KeepGoing or
	// when every session was valid).
	Invalid *SessionError
	// Unreadable lists the session files that could not be read or
	// cleaned; the run goes on without them.
	Unreadable []error
	// Lines counts the lines read that are not blank: a run that writes no
	// record from some is a failure.
	Lines int
}

// Converter runs one conversion; Progress may be read while Run runs.
type Converter struct {
	Opts     Options
	sessions atomic.Int64
	bytes    atomic.Int64
}

// Progress returns the sessions and bytes read so far.
func (c *Converter) Progress() (sessions, bytes int64) { return c.sessions.Load(), c.bytes.Load() }

// Run converts the logs. An error means the run could not be done at all
// (unwritable output, a pack that does not compile); problems with the data
// are in the report and the Result.
func (c *Converter) Run(ctx context.Context) (Result, error) {
	o := &c.Opts
	var res Result
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cleanup, err := newCleanupEngines(ctx, o)
	if err != nil {
		return res, err
	}
	var ieng *integrityEngine
	if o.Integrity {
		if ieng, err = newIntegrityEngine(ctx); err != nil {
			return res, err
		}
	}
	if err := os.MkdirAll(o.Output, 0o755); err != nil {
		return res, err
	}
	sessions, walkErrs := discover(o.Logs)
	res.Unreadable = append(res.Unreadable, walkErrs...)
	res.Sessions = len(sessions)

	out, err := newOutputs(o.Output)
	if err != nil {
		return res, err
	}
	defer out.discard()
	rep := newReport(o)

	usageGroup := o.GroupBy
	if o.SingleFile {
		usageGroup = ""
	}
	usage := newUsageTable(usageGroup)
	// handle takes the outcome of one session, in discovery order; false
	// stops the run.
	var fatal error
	handle := func(oc outcome) bool {
		res.Lines += oc.lines
		if o.Verbose != nil {
			fmt.Fprintf(o.Verbose, "convert: %s: %d report lines\n", report.EscapeControls(oc.session.Path), len(oc.findings))
		}
		for _, f := range oc.findings {
			if fatal = rep.add(oc, f); fatal != nil {
				return false
			}
		}
		switch {
		case oc.readErr != nil:
			res.Unreadable = append(res.Unreadable, oc.readErr)
			return true
		case oc.invalid != nil:
			if !o.KeepGoing {
				res.Invalid = oc.invalid
				return false
			}
			fatal = rep.add(oc, Finding{Error: true, Rule: "session-invalid", Message: oc.invalid.Error(), Line: oc.invalid.Line})
			return fatal == nil
		case oc.record == nil:
			return true
		}
		if fatal = out.add(oc.group, oc.record); fatal != nil {
			return false
		}
		usage.add(oc.usage)
		return true
	}
	c.each(ctx, workers, sessions, cleanup, ieng, handle)
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if fatal != nil {
		return res, fatal
	}
	res.Errors, res.Warnings = rep.errors, rep.warnings
	if res.Invalid != nil {
		fmt.Fprintf(o.Stdout, "ERROR: %s\n", report.EscapeControls(fmt.Sprint(res.Invalid)))
		return res, rep.write(res)
	}
	if out.records == 0 {
		fmt.Fprintln(o.Stdout, "No sessions found to process.")
		return res, rep.write(res)
	}
	res.Records = out.records
	if o.SingleFile {
		path := filepath.Join(o.Output, "conversations.jsonl")
		if err := out.writeAll(path); err != nil {
			return res, err
		}
		fmt.Fprintf(o.Stdout, "Wrote %d records to %s\n", out.records, pyJoin(o.Output, []string{"conversations.jsonl"}))
	} else {
		n, err := out.writeGroups(o.Output, o.GroupBy == GroupScenario)
		if err != nil {
			return res, err
		}
		fmt.Fprintf(o.Stdout, "Wrote %d records across %d files to %s\n", out.records, n, py.Path(o.Output))
	}
	if o.ToolReport {
		path, shown := o.ToolReportPath, py.Path(o.ToolReportPath)
		if path == "" {
			path, shown = filepath.Join(o.Output, ToolReportName), pyJoin(o.Output, []string{ToolReportName})
		}
		if err := writeFile(path, usage.write); err != nil {
			return res, err
		}
		fmt.Fprintf(o.Stdout, "Wrote tool usage report to %s\n", shown)
	}
	if o.Integrity {
		fmt.Fprintf(o.Stdout, "Integrity summary: errors=%d warnings=%d total=%d\n", rep.errors, rep.warnings, rep.total)
		fmt.Fprintf(o.Stdout, "Wrote integrity report to %s (%d findings)\n", pyJoin(o.Output, []string{IntegrityReportName}), rep.total)
	}
	return res, rep.write(res)
}
