package report

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// maxFileBars caps the findings-per-file chart; the other files are summed
// into one line under it (the table's file filter still finds them).
const maxFileBars = 25

// htmlPage is everything the template shows. Text in it is plain text:
// html/template escapes it for where it lands.
type htmlPage struct {
	Version string
	Verdict verdict
	// Checked names the inputs in the header when there are at most three.
	Checked string
	Summary finding.Summary
	Formats []finding.FormatCount
	// NotChecked are inputs that could not be read or held nothing.
	NotChecked []finding.Input

	Findings  int // findings written, all of them
	Sampled   int // findings in the table
	PerRule   int // the sample's bound per rule
	Truncated bool

	Rules     []pageRule // rules with findings, most first
	Quiet     []pageRule // active rules that found nothing
	RuleChart barChart

	FilesWith        int // files with findings
	FileChart        barChart
	FileDir          string // the folder all of them are under, left out of the labels
	MoreFiles        int
	MoreFileFindings int
	Stats            *statsView
	// StatsOnly: a page of statistics (chatlint stats), with no rules run:
	// the findings sections and the pass/fail verdict are left out.
	StatsOnly bool
	Data      pageData
}

type verdict struct {
	Failed bool
	Text   string
}

// pageRule is one rule with its counts and the metadata its explanation
// shows.
type pageRule struct {
	rule.Rule
	Anchor                         string
	Errors, Warnings, Infos, Total int
	Sampled                        int
}

// pageData is the sample the script filters and pages, embedded as JSON.
// Findings name rules and files by index to keep the page small.
type pageData struct {
	Rules    []dataRule    `json:"rules"`
	Files    []string      `json:"files"`
	Findings []dataFinding `json:"findings"`
}

type dataRule struct {
	ID     string `json:"id"`
	Anchor string `json:"anchor"`
	Total  int    `json:"total"`
}

type dataFinding struct {
	Rule     int    `json:"r"`
	Severity string `json:"s"`
	File     int    `json:"f"`
	Line     int    `json:"l"`
	Path     string `json:"p,omitempty"`
	Message  string `json:"m"`
	Record   string `json:"id,omitempty"`
}

// plainID is compiled on first use: its {1,100} makes it a costly
// expression to compile, and most runs write no HTML (issue 25).
var plainID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`) })

// anchorOf names a rule's explanation: its id when that is safe in a URL
// fragment and an HTML id alike, else its position.
func anchorOf(id string, i int) string {
	if plainID().MatchString(id) {
		return "rule-" + id
	}
	return "rule-" + strconv.Itoa(i)
}

func (h *htmlWriter) page(s finding.Summary) htmlPage {
	p := htmlPage{Version: h.opts.Version, Summary: s, Formats: s.ByFormat(), PerRule: h.perRule, Verdict: h.verdict(s), Checked: checked(s.Inputs)}
	for _, in := range s.Inputs {
		if in.Error != "" || in.Warning != "" {
			in.File, in.Error = escapeControls(in.File), escapeControls(in.Error)
			p.NotChecked = append(p.NotChecked, in)
		}
	}
	for i, r := range h.rules.rules {
		pr := pageRule{Rule: r, Anchor: anchorOf(r.ID, i)}
		if i < len(h.tally) {
			t := h.tally[i]
			pr.Errors, pr.Warnings, pr.Infos = t.bySev[finding.Error], t.bySev[finding.Warning], t.bySev[finding.Info]
			pr.Total, pr.Sampled = t.total(), len(t.sample)
		}
		p.Findings += pr.Total
		p.Sampled += pr.Sampled
		if pr.Total > pr.Sampled {
			p.Truncated = true
		}
		if pr.Total == 0 {
			p.Quiet = append(p.Quiet, pr)
		} else {
			p.Rules = append(p.Rules, pr)
		}
	}
	slices.SortStableFunc(p.Rules, func(a, b pageRule) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.ID, b.ID))
	})
	var items []barItem
	for _, r := range p.Rules {
		items = append(items, barItem{Label: escapeControls(r.ID), Href: "#" + r.Anchor, Parts: severityParts(r.Errors, r.Warnings, r.Infos)})
	}
	p.RuleChart = layoutBars(items)
	p.FilesWith = len(h.order)
	p.FileChart, p.FileDir, p.MoreFiles, p.MoreFileFindings = h.fileChart()
	p.Stats = newStatsView(h.stats)
	p.StatsOnly = h.stats != nil && len(h.opts.Rules) == 0 && h.seq == 0
	p.Data = h.data()
	return p
}

func (h *htmlWriter) verdict(s finding.Summary) verdict {
	failOn := h.opts.FailOn
	unread := 0
	for _, in := range s.Inputs {
		if in.Error != "" {
			unread++
		}
	}
	switch {
	case unread > 0: // check exits 2 whatever the findings
		return verdict{Failed: true, Text: plural(unread, "input") + " could not be read"}
	case failOn > finding.Error:
		return verdict{Text: "--fail-on never"}
	case s.Worst() >= failOn:
		return verdict{Failed: true, Text: "findings at or above --fail-on " + failOn.String()}
	}
	return verdict{Text: "nothing at or above --fail-on " + failOn.String()}
}

// checked names up to three inputs; more are left to the summary.
func checked(ins []finding.Input) string {
	if len(ins) == 0 || len(ins) > 3 {
		return ""
	}
	names := make([]string, len(ins))
	for i, in := range ins {
		names[i] = escapeControls(in.File)
	}
	return strings.Join(names, ", ")
}

func severityParts(e, w, i int) []barPart {
	return []barPart{{N: e, Class: "sev-error"}, {N: w, Class: "sev-warning"}, {N: i, Class: "sev-info"}}
}

// fileChart draws the files with the most findings, and sums the rest.
func (h *htmlWriter) fileChart() (barChart, string, int, int) {
	names := slices.Clone(h.order)
	total := func(n string) int {
		b := h.files[n].bySev
		return b[finding.Error] + b[finding.Warning] + b[finding.Info]
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(total(b), total(a)) })
	more, moreN := 0, 0
	if len(names) > maxFileBars {
		for _, n := range names[maxFileBars:] {
			more++
			moreN += total(n)
		}
		names = names[:maxFileBars]
	}
	dir := commonDir(names)
	var items []barItem
	for _, n := range names {
		b := h.files[n].bySev
		items = append(items, barItem{Label: tail(escapeControls(strings.TrimPrefix(n, dir)), maxLabel), Title: escapeControls(n),
			Href: "#findings", File: escapeControls(n), Parts: severityParts(b[finding.Error], b[finding.Warning], b[finding.Info])})
	}
	return layoutBars(items), escapeControls(dir), more, moreN
}

// commonDir is the folder, ending in "/", that every name is under ("" for
// none): the chart labels leave it out and the page names it once.
func commonDir(names []string) string {
	if len(names) == 0 {
		return ""
	}
	dir := names[0][:strings.LastIndexByte(names[0], '/')+1]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, dir) {
			dir = dir[:strings.LastIndexByte(dir[:len(dir)-1], '/')+1]
		}
	}
	return dir
}

// tail keeps the last n runes of s, the end of a path being the part that
// tells files apart, with "…" when it cut.
func tail(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// data is the table's sample, in input order.
func (h *htmlWriter) data() pageData {
	d := pageData{Rules: []dataRule{}, Files: []string{}, Findings: []dataFinding{}}
	for i, r := range h.rules.rules {
		t := 0
		if i < len(h.tally) {
			t = h.tally[i].total()
		}
		d.Rules = append(d.Rules, dataRule{ID: escapeControls(r.ID), Anchor: anchorOf(r.ID, i), Total: t})
	}
	fileIdx := map[string]int{}
	for _, s := range h.samples() {
		f := s.f
		fi, ok := fileIdx[f.File]
		if !ok {
			fi = len(d.Files)
			fileIdx[f.File] = fi
			d.Files = append(d.Files, f.File)
		}
		d.Findings = append(d.Findings, dataFinding{Rule: h.rules.index[f.Rule], Severity: f.Severity.String(), File: fi,
			Line: f.Line, Path: f.Path, Message: f.Message, Record: f.Record})
	}
	return d
}
