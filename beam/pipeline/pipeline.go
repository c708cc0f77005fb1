// Package pipeline runs chatlint's rule packs as an Apache Beam pipeline, so
// one job checks a dataset too large for one machine on any Beam runner
// (the local prism runner, Dataflow, Flink, Spark).
//
//	match files ─▶ ReadFn (per file: format, units, layout) ─▶ Reshuffle
//	  ─▶ CheckFn (lint.Linter.Check) ─▶ findings as JSON lines ─▶ output files
//	       └─▶ facts per file (and ReadFn's layout) ─▶ GroupByKey ─▶ DatasetFn (dataset rules) ─▶ findings
//	  tallies ─▶ Combine(SummaryFn) ─▶ summary file
//
// With Options.Fix, FixFn (fix.Fixer.Fix over the cleanup stages) takes CheckFn's
// place and the job writes fixed records, rejects and notes.
//
// Findings are those of `chatlint check` for the same files, line for line;
// only their order differs, as the output is written in parallel.
package pipeline

import (
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	// Local paths work on every runner; beamx adds gs:// for the binary.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// Options describe one job.
type Options struct {
	// Inputs are file globs: local paths, or gs:// and the like through
	// Beam's filesystems.
	Inputs []string
	// Output is where the findings go, one JSON object per line; with
	// Shards > 1, ShardName(Output, i, Shards) for each shard.
	Output string
	// Shards is the number of findings files; 0 means 1.
	Shards int
	// Summary is where the summary goes, one JSON object.
	Summary string
	// Reshuffle spreads the records of each file over all workers. Without
	// it a file is read and checked where it was matched, so a job's
	// parallelism is its number of files; with it every record is
	// shuffled once, which costs I/O but lets a few large files use every
	// worker.
	Reshuffle bool
	Config    Config
	// Fix, when set, makes the job fix records instead of checking them:
	// Output gets the fixed records, Rejects what the rules dropped, Notes
	// what was left as it was, and Summary what was done.
	Fix *Fix
	// Rejects and Notes are where a fixing job writes its rejects and
	// notes, one JSON object per line, in Shards files each like Output.
	Rejects, Notes string
}

// Build adds the job to s. Every function and DoFn it uses is registered in
// this package's init, and they hold no closures: a remote worker rebuilds
// them from their exported fields.
func Build(s beam.Scope, o Options) error {
	if len(o.Inputs) == 0 || o.Output == "" || o.Summary == "" {
		return fmt.Errorf("pipeline: Inputs, Output and Summary are required")
	}
	outputs := []string{o.Output, o.Summary}
	if o.Fix != nil {
		if o.Rejects == "" || o.Notes == "" {
			return fmt.Errorf("pipeline: a fixing job needs Rejects and Notes")
		}
		outputs = append(outputs, o.Rejects, o.Notes)
	}
	for _, path := range append(outputs, o.Inputs...) {
		if err := validScheme(path); err != nil {
			return err
		}
	}
	shards := max(o.Shards, 1)
	s = s.Scope("chatlint")
	globs := beam.CreateList(s, o.Inputs)
	// A file matched by two globs is read once, as `check` reads a path
	// given twice once.
	matched := filter.Distinct(s, fileio.MatchAll(s, globs, fileio.MatchEmptyDisallow()))
	files := fileio.ReadMatches(s, matched, fileio.ReadDirectorySkip())
	units, readFindings, readTallies, layouts := beam.ParDo4(s, &ReadFn{Format: o.Config.Format, MaxLineSize: o.Config.MaxLineSize, MaxValues: o.Config.MaxValues, Fix: o.Fix != nil, Settings: o.Config.Settings}, files)
	if o.Reshuffle {
		units = beam.Reshuffle(s, units)
	}
	if o.Fix != nil {
		buildFix(s, o, shards, units, readFindings, readTallies)
		return nil
	}
	checked, checkTallies, facts := beam.ParDo3(s, &CheckFn{Config: o.Config}, units)
	datasetFindings, datasetTallies := buildDataset(s, o.Config, beam.Flatten(s, layouts, facts))

	findings := beam.Flatten(s, readFindings, checked, datasetFindings)
	writeLines(s.Scope("Findings"), o.Output, shards, findings)

	summary := beam.Combine(s, &SummaryFn{}, beam.Flatten(s, readTallies, checkTallies, datasetTallies))
	writeLines(s.Scope("Summary"), o.Summary, 1, summary)
	return nil
}

// buildFix is the rest of a fixing job: FixFn on every unit, then its
// four outputs. The reader's findings (an unrecognized format, a line too
// long) are notes.
func buildFix(s beam.Scope, o Options, shards int, units, readNotes, readTallies beam.PCollection) {
	fixed, rejects, notes, tallies := beam.ParDo4(s, &FixFn{Config: o.Config, Fix: *o.Fix}, units)
	writeLines(s.Scope("Records"), o.Output, shards, fixed)
	writeLines(s.Scope("Rejects"), o.Rejects, shards, rejects)
	writeLines(s.Scope("Notes"), o.Notes, shards, beam.Flatten(s, readNotes, notes))
	summary := beam.Combine(s, &SummaryFn{Fix: true}, beam.Flatten(s, readTallies, tallies))
	writeLines(s.Scope("Summary"), o.Summary, 1, summary)
}
