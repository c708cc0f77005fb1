package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/beam/pipeline"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// fixJob is job for --fix: the cleanup packs (each --pack a stage, or each
// format's default), read and compiled here, and the paths of the rejects
// and notes beside the output.
func (o *options) fixJob(ctx context.Context) (pipeline.Options, finding.Severity, error) {
	for _, f := range []struct {
		set  bool
		name string
	}{{o.NoBuiltin, "--no-builtin"}, {o.AllowNoTools, "--allow-no-tools"}, {o.FailOn != "", "--fail-on"}, {o.ConfigPath != "", "--config"}, {o.Profile != document.DefaultProfile, "--profile"}} {
		if f.set {
			return pipeline.Options{}, 0, fmt.Errorf("%s applies to checking, not to --fix", f.name)
		}
	}
	if o.MaxPasses < 1 {
		return pipeline.Options{}, 0, errors.New("--max-passes: want at least 1")
	}
	fx, err := pipeline.LoadFix(o.Packs, o.MaxPasses)
	if err != nil {
		return pipeline.Options{}, 0, err
	}
	cfg := pipeline.Config{Disable: o.Disable, RecordTimeout: o.Timeout, Format: o.Format, ToolCalls: o.ToolCalls, MaxLineSize: o.MaxLineSize, MaxValues: o.MaxValues}
	if err := fx.Validate(ctx, cfg); err != nil {
		return pipeline.Options{}, 0, err
	}
	if err := o.checkInputs(ctx, true); err != nil {
		return pipeline.Options{}, 0, err
	}
	job := o.options(cfg)
	job.Fix = fx
	job.Rejects = o.Output + jsonl.RejectsSuffix
	job.Notes = o.Output + ".notes.jsonl"
	return job, 0, nil
}

// fixReport prints the closing lines of `chatlint fix` (documents changed,
// actions per rule) and where everything went, and returns the exit
// status: 2 when a rule failed on a document or a file was not written
// for a line over --max-line-size (as chatlint fix), 1 when a document
// was left as it was (its actions conflict or never settle), else 0.
func fixReport(w io.Writer, job pipeline.Options, sum pipeline.Summary) int {
	fs := sum.Fix
	actions := 0
	for _, a := range fs.Actions {
		actions += a.Actions
	}
	fmt.Fprintf(w, "fixed %d of %d %s (%d %s, %d %s, %d %s, %d dropped)\n", fs.Changed, fs.Documents, plural(fs.Documents, "record"),
		sum.Files, plural(sum.Files, "file"), sum.Records, plural(sum.Records, "line"), actions, plural(actions, "action"), fs.Dropped)
	for _, a := range fs.Actions {
		fmt.Fprintf(w, "  %-28s %d\n", a.Rule, a.Actions)
	}
	notes := sum.Errors + sum.Warnings + sum.Infos
	fmt.Fprintf(w, "records: %s\nrejects: %s\nnotes: %s (%d)\nsummary: %s\n",
		files(job.Output, job.Shards), files(job.Rejects, job.Shards), files(job.Notes, job.Shards), notes, job.Summary)
	has := func(rule string) bool {
		return slices.ContainsFunc(sum.Rules, func(r pipeline.RuleCount) bool { return r.Rule == rule })
	}
	if n := count(sum, lint.RuleLineTooLong); n > 0 {
		// chatlint fix's word for such a file; the notes name each line.
		fmt.Fprintf(w, "chatlint-beam: %d %s over --max-line-size: nothing is written for the files that hold them (the notes name them); raise --max-line-size to fix them\n",
			n, plural(n, "line"))
	}
	switch {
	case has(lint.RulePolicyError) || has(lint.RuleLineTooLong):
		return exitError
	case fs.Unfixed > 0:
		return exitFindings
	}
	return exitOK
}

// count is the number of notes of one rule, at any severity.
func count(sum pipeline.Summary, rule string) int {
	n := 0
	for _, r := range sum.Rules {
		if r.Rule == rule {
			n += r.Findings
		}
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// files names an output file set, with a * for the shard number.
func files(path string, shards int) string {
	if shards <= 1 {
		return path
	}
	return strings.Replace(pipeline.ShardName(path, 0, shards), "-00000-of-", "-*-of-", 1)
}
